// Pass common_subexpression_elimination: nodes with the same op, attributes and inputs compute
// the same outputs, so each such group runs once and the copies' readers read the first node's
// outputs (ONNX Runtime's CommonSubexpressionElimination). Small constant initializers equal by
// value count as the same input. Random ops, nodes holding subgraphs and ops outside ai.onnx are
// never merged; a node whose outputs are graph outputs or are read inside subgraphs may be the
// one kept, never the one removed.
#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "lib/optimizer/passes.h"

namespace ort {
namespace {

// Initializers larger than this are compared by name only: comparing them costs more than a
// duplicate node saves.
constexpr size_t kMaxComparedInitializerBytes = 4096;

void HashCombine(size_t& seed, size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

bool TensorsEqual(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (!a.IsDefined() || a.NumElements() == 0) return true;
  if (a.dtype() == DataType::kString) {
    const auto x = a.Span<std::string>();
    const auto y = b.Span<std::string>();
    return std::equal(x.begin(), x.end(), y.begin());
  }
  // Bitwise: 0.0f and -0.0f are different constants.
  return std::memcmp(a.RawData(), b.RawData(), a.SizeInBytes()) == 0;
}

size_t HashTensor(const Tensor& tensor) {
  size_t seed = std::hash<int>()(static_cast<int>(tensor.dtype()));
  if (tensor.NumElements() == 0) return seed;
  for (int64_t dim : tensor.shape().dims()) HashCombine(seed, std::hash<int64_t>()(dim));
  if (tensor.dtype() == DataType::kString) {
    for (const auto& s : tensor.Span<std::string>()) HashCombine(seed, std::hash<std::string>()(s));
  } else {
    const std::string_view bytes(static_cast<const char*>(tensor.RawData()), tensor.SizeInBytes());
    HashCombine(seed, std::hash<std::string_view>()(bytes));
  }
  return seed;
}

bool AttributesEqual(const Attribute& a, const Attribute& b) {
  if (a.name != b.name || a.type != b.type || a.ref_attr_name != b.ref_attr_name) return false;
  switch (a.type) {
    case AttributeType::kFloat:
      return std::memcmp(&a.f, &b.f, sizeof(float)) == 0;
    case AttributeType::kInt:
      return a.i == b.i;
    case AttributeType::kString:
      return a.s == b.s;
    case AttributeType::kTensor:
    case AttributeType::kSparseTensor:
      return TensorsEqual(a.t, b.t);
    case AttributeType::kFloats:
      return a.floats.size() == b.floats.size() &&
             (a.floats.empty() ||
              std::memcmp(a.floats.data(), b.floats.data(), a.floats.size() * sizeof(float)) == 0);
    case AttributeType::kInts:
      return a.ints == b.ints;
    case AttributeType::kStrings:
      return a.strings == b.strings;
    case AttributeType::kTensors:
    case AttributeType::kSparseTensors:
      return std::equal(a.tensors.begin(), a.tensors.end(), b.tensors.begin(), b.tensors.end(),
                        TensorsEqual);
    case AttributeType::kTypeProto:
    case AttributeType::kTypeProtos:
      return a.type_protos == b.type_protos;
    default:
      return false;  // graphs, undefined
  }
}

// Ops whose outputs differ from run to run: two of them are not one.
bool IsNondeterministic(const Node& node) {
  const std::string& op = node.op_type();
  // A training_mode input may switch random dropout on.
  if (op == "Dropout") return node.HasInput(2);
  return op == "RandomNormal" || op == "RandomUniform" || op == "RandomNormalLike" ||
         op == "RandomUniformLike" || op == "Multinomial" || op == "Bernoulli";
}

// Whether the node's outputs are determined by its op, attributes and inputs alone.
bool IsCandidate(const Node& node) {
  // Ops of other domains may be random (com.microsoft's BiasDropout) or have side effects.
  if (node.domain() != kOnnxDomain) return false;
  return node.Subgraphs().empty() && !IsNondeterministic(node) && !node.outputs().empty();
}

// Whether the node may go, its readers reading another node's outputs instead.
bool IsRemovable(const Graph& graph, const Node& node) {
  for (const auto& output : node.outputs()) {
    if (output.empty()) continue;
    if (graph.IsGraphOutput(output)) return false;
    // Renaming a value read inside a subgraph would leave the subgraph reading a stale name.
    for (const Node* consumer : graph.Consumers(output)) {
      const auto& implicit = consumer->implicit_inputs();
      if (std::find(implicit.begin(), implicit.end(), output) != implicit.end()) return false;
    }
  }
  return true;
}

// Removes `duplicate`; its readers read `kept`'s outputs.
void Merge(Graph& graph, const Node& kept, NodeIndex duplicate) {
  const std::vector<std::string> outputs = graph.GetNode(duplicate)->outputs();
  const std::vector<std::string> kept_outputs = kept.outputs();
  graph.RemoveNode(duplicate);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].empty()) graph.ReplaceAllUses(outputs[i], kept_outputs[i]);
  }
}

class CommonSubexpressionElimination final : public GraphTransformer {
 public:
  CommonSubexpressionElimination()
      : GraphTransformer("common_subexpression_elimination", OptimizationLevel::kBasic) {}

  Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const override {
    ORT_RETURN_IF_ERROR(ApplyToSubgraphs(graph, context, changed));
    const std::unordered_map<std::string, std::string> constants = CanonicalConstants(graph);
    const auto canonical = [&constants](const std::string& value) -> const std::string& {
      auto it = constants.find(value);
      return it == constants.end() ? value : it->second;
    };
    ORT_ASSIGN_OR_RETURN(std::vector<NodeIndex> order, graph.TopologicalOrder());
    // Readers of a merged node read the kept node's outputs by the time they come up, so equal
    // chains collapse in one sweep.
    std::unordered_map<size_t, std::vector<NodeIndex>> seen;
    for (NodeIndex index : order) {
      Node& node = *graph.GetNode(index);
      if (!IsCandidate(node)) continue;
      size_t key = std::hash<std::string>()(node.op_type());
      HashCombine(key, std::hash<std::string>()(node.domain()));
      for (const auto& input : node.inputs()) {
        HashCombine(key, std::hash<std::string>()(canonical(input)));
      }
      for (const auto& [name, attribute] : node.attributes()) {
        HashCombine(key, std::hash<std::string>()(name));
      }
      std::vector<NodeIndex>& bucket = seen[key];
      auto match = std::find_if(bucket.begin(), bucket.end(), [&](NodeIndex other) {
        return Equivalent(*graph.GetNode(other), node, canonical);
      });
      if (match == bucket.end()) {
        bucket.push_back(index);
      } else if (IsRemovable(graph, node)) {
        Merge(graph, *graph.GetNode(*match), index);
        changed = true;
      } else if (IsRemovable(graph, *graph.GetNode(*match)) &&
                 Equivalent(node, *graph.GetNode(*match), canonical)) {
        // The node names a graph output: it stays and the earlier copy goes.
        Merge(graph, node, *match);
        *match = index;
        changed = true;
      }
    }
    return Status::OK();
  }

 private:
  template <typename Canonical>
  static bool Equivalent(const Node& a, const Node& b, const Canonical& canonical) {
    if (a.op_type() != b.op_type() || a.domain() != b.domain() ||
        a.inputs().size() != b.inputs().size() || a.outputs().size() != b.outputs().size() ||
        a.attributes().size() != b.attributes().size()) {
      return false;
    }
    for (size_t i = 0; i < a.inputs().size(); ++i) {
      if (canonical(a.inputs()[i]) != canonical(b.inputs()[i])) return false;
    }
    // The kept node must produce every output the other one's readers need.
    for (size_t i = 0; i < a.outputs().size(); ++i) {
      if (a.outputs()[i].empty() && !b.outputs()[i].empty()) return false;
    }
    auto x = a.attributes().begin();
    for (auto y = b.attributes().begin(); y != b.attributes().end(); ++x, ++y) {
      if (!AttributesEqual(x->second, y->second)) return false;
    }
    return true;
  }

  // Maps each small constant initializer visible here (this graph's and enclosing graphs') to
  // the first one holding the same type, shape and values.
  static std::unordered_map<std::string, std::string> CanonicalConstants(const Graph& graph) {
    std::unordered_map<std::string, std::string> canonical;
    std::unordered_map<size_t, std::vector<std::pair<std::string, const Tensor*>>> by_hash;
    for (const Graph* scope = &graph; scope != nullptr; scope = scope->parent_graph()) {
      for (const auto& [name, tensor] : scope->initializers()) {
        if (canonical.count(name) || tensor.SizeInBytes() > kMaxComparedInitializerBytes ||
            graph.GetConstantInitializer(name, true) != &tensor) {
          continue;
        }
        auto& bucket = by_hash[HashTensor(tensor)];
        std::string representative = name;
        for (const auto& [other, other_tensor] : bucket) {
          if (TensorsEqual(*other_tensor, tensor)) {
            representative = other;
            break;
          }
        }
        if (representative == name) bucket.emplace_back(name, &tensor);
        canonical.emplace(name, std::move(representative));
      }
    }
    return canonical;
  }
};

}  // namespace

std::unique_ptr<GraphTransformer> CreateCommonSubexpressionElimination() {
  return std::make_unique<CommonSubexpressionElimination>();
}

}  // namespace ort
