// Rule fold_sequence_at: SequenceAt with a constant position in a sequence built in the graph
// (SequenceEmpty or SequenceConstruct, then SequenceInserts at constant positions or the end) is
// replaced by the tensor stored there (torch's tensor_split, once unroll_loops has unrolled the
// Loop that appends its slices).
#include <optional>
#include <string>
#include <vector>

#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// Sequences longer than this are not followed.
constexpr size_t kMaxTensors = 64;

std::optional<int64_t> ConstantPosition(const Graph& graph, const Node& node, size_t index) {
  const auto values = ConstantInts(graph, node, index);
  if (!values || values->size() != 1) return std::nullopt;
  const Tensor* tensor = ConstantInput(graph, node, index);
  if (tensor == nullptr || tensor->shape().rank() != 0) return std::nullopt;
  return (*values)[0];
}

// Position `position` (negative from the end) of a sequence of `size`, or nullopt when outside.
std::optional<size_t> Resolve(int64_t position, size_t size, bool end_allowed) {
  const auto count = static_cast<int64_t>(size);
  if (position < 0) position += count;
  if (position < 0 || position > count || (position == count && !end_allowed)) return std::nullopt;
  return static_cast<size_t>(position);
}

// The tensors of `sequence`, in order, when the graph builds it from known parts.
std::optional<std::vector<std::string>> SequenceTensors(const Graph& graph,
                                                        const std::string& sequence) {
  const Node* node = graph.Producer(sequence);
  if (node == nullptr || node->domain() != kOnnxDomain) return std::nullopt;
  if (node->op_type() == "SequenceEmpty") return std::vector<std::string>{};
  if (node->op_type() == "SequenceConstruct") {
    if (node->inputs().size() > kMaxTensors) return std::nullopt;
    return node->inputs();
  }
  if (node->op_type() != "SequenceInsert" || !node->HasInput(1)) return std::nullopt;
  auto tensors = SequenceTensors(graph, node->inputs()[0]);
  if (!tensors || tensors->size() >= kMaxTensors) return std::nullopt;
  size_t at = tensors->size();
  if (node->HasInput(2)) {
    const auto position = ConstantPosition(graph, *node, 2);
    const auto resolved = position ? Resolve(*position, tensors->size(), true) : std::nullopt;
    if (!resolved) return std::nullopt;
    at = *resolved;
  }
  tensors->insert(tensors->begin() + static_cast<ptrdiff_t>(at), node->inputs()[1]);
  return tensors;
}

std::optional<std::string> StoredTensor(const Graph& graph, const Node& sequence_at) {
  if (!sequence_at.HasInput(1) || !sequence_at.HasOutput(0)) return std::nullopt;
  const auto position = ConstantPosition(graph, sequence_at, 1);
  if (!position) return std::nullopt;
  const auto tensors = SequenceTensors(graph, sequence_at.inputs()[0]);
  if (!tensors) return std::nullopt;
  const auto at = Resolve(*position, tensors->size(), false);
  if (!at) return std::nullopt;
  return (*tensors)[*at];
}

class FoldSequenceAt final : public RewriteRule {
 public:
  FoldSequenceAt() : RewriteRule("fold_sequence_at", {"SequenceAt"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    // A graph output keeps its name: the node stays when it defines one.
    return node.HasOutput(0) && !graph.IsGraphOutput(node.outputs()[0]) &&
           StoredTensor(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const auto tensor = StoredTensor(graph, node);
    if (!tensor) return Status::OK();
    graph.ReplaceAllUses(node.outputs()[0], *tensor);
    graph.RemoveNode(node.index());
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFoldSequenceAtRule() {
  return std::make_unique<FoldSequenceAt>();
}

}  // namespace ort
