// Pass inline_control_flow: an If whose condition is a constant becomes the branch it takes, and
// a Loop with a constant trip count of at most kMaxTrips whose condition stays true becomes its
// body copied once per iteration, the iteration number a constant in each copy. torch exports
// tensor_split as a one-iteration Loop appending slices to a sequence, and squeeze(dim) of a
// dynamic dimension as an If on its size: both hide every later shape from inference and every
// later block from the fusions. Scan outputs become Concats of the iterations' values; branches
// and bodies holding subgraphs stay as they are.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <unordered_map>

#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

constexpr int64_t kMaxTrips = 8;
// Nodes all copies of a body may add together.
constexpr size_t kMaxUnrolledNodes = 512;

// The value of `value`, read in `graph`, when it is a one-element bool constant (here or in an
// enclosing scope), or an Identity or Constant node of one.
std::optional<bool> ConstantCondition(const Graph& graph, const std::string& value) {
  const Node* producer = graph.Producer(value);
  const Tensor* tensor = nullptr;
  if (producer == nullptr) {
    tensor = graph.GetConstantInitializer(value, true);
  } else if (producer->domain() == kOnnxDomain && producer->op_type() == "Identity") {
    return ConstantCondition(graph, producer->inputs()[0]);
  } else if (producer->domain() == kOnnxDomain && producer->op_type() == "Constant") {
    const Attribute* attribute = producer->FindAttribute("value");
    if (attribute != nullptr && attribute->type == AttributeType::kTensor) tensor = &attribute->t;
  }
  if (tensor == nullptr || tensor->dtype() != DataType::kBool || tensor->NumElements() != 1) {
    return std::nullopt;
  }
  return tensor->Data<bool>()[0];
}

bool HoldsSubgraphs(const Graph& graph) {
  for (const Node* node : graph.Nodes()) {
    if (!node->Subgraphs().empty()) return true;
  }
  return false;
}

// Copies subgraphs into `graph` under fresh names: each copy's inputs are given values of
// `graph`, its initializers become initializers of `graph`, and what it reads from enclosing
// scopes keeps its name.
class Inliner {
 public:
  Inliner(Graph& graph, std::string prefix) : graph_(graph), prefix_(std::move(prefix)) {}

  // Copies `body` reading `inputs` (one per body input); returns its outputs' copies.
  Result<std::vector<std::string>> Inline(const Graph& body, const std::vector<std::string>& inputs,
                                          std::string_view copy_name) {
    names_.clear();
    for (size_t i = 0; i < inputs.size(); ++i) names_[body.inputs()[i]] = inputs[i];
    for (const auto& [name, tensor] : body.initializers()) {
      if (!names_.count(name)) names_[name] = Constant(tensor, name);
    }
    ORT_ASSIGN_OR_RETURN(std::vector<NodeIndex> order, body.TopologicalOrder());
    for (NodeIndex index : order) {
      const Node& node = *body.GetNode(index);
      NodeSpec spec;
      spec.name = graph_.UniqueNodeName(fmt::format("{}/{}/{}", prefix_, copy_name, node.name()));
      spec.op_type = node.op_type();
      spec.domain = node.domain();
      for (const auto& input : node.inputs()) spec.inputs.push_back(Read(input));
      for (const auto& output : node.outputs()) {
        if (output.empty()) {
          spec.outputs.emplace_back();
          continue;
        }
        const std::string copy = graph_.UniqueValueName(fmt::format("{}/{}", prefix_, output));
        if (const ValueInfo* info = body.FindValueInfo(output)) {
          graph_.SetValueType(copy, info->type);
        }
        names_[output] = copy;
        spec.outputs.push_back(copy);
      }
      for (const auto& [name, attribute] : node.attributes()) {
        spec.attributes.push_back(attribute.Clone());
      }
      graph_.AddNode(std::move(spec));
    }
    std::vector<std::string> outputs;
    for (const auto& output : body.outputs()) outputs.push_back(Read(output));
    return outputs;
  }

  // A new initializer holding `tensor`.
  std::string Constant(Tensor tensor, std::string_view hint) {
    const std::string name = graph_.UniqueValueName(fmt::format("{}/{}", prefix_, hint));
    graph_.AddInitializer(name, std::move(tensor));
    return name;
  }

  // Adds `op_type`(inputs) writing `output`.
  void AddNode(const std::string& op_type, std::vector<std::string> inputs,
               const std::string& output, std::vector<Attribute> attributes = {}) {
    NodeSpec spec;
    spec.name = graph_.UniqueNodeName(fmt::format("{}/{}", prefix_, op_type));
    spec.op_type = op_type;
    spec.inputs = std::move(inputs);
    spec.outputs = {output};
    spec.attributes = std::move(attributes);
    graph_.AddNode(std::move(spec));
  }

 private:
  // A copied value's new name; values of enclosing scopes (and "") keep theirs.
  std::string Read(const std::string& value) const {
    const auto found = names_.find(value);
    return found != names_.end() ? found->second : value;
  }

  Graph& graph_;
  std::string prefix_;
  std::unordered_map<std::string, std::string> names_;
};

// Body input `index`'s value for the copy: a scalar, or of shape [1] where the body declares
// that (torch declares the iteration number so; the Loop kernels feed it as declared).
template <typename T>
Tensor BodyInput(const Graph& body, size_t index, T value) {
  const ValueInfo* info = body.FindValueInfo(body.inputs()[index]);
  const bool rank_one = info != nullptr && info->type.shape && info->type.shape->size() == 1;
  return rank_one ? Tensor::FromVector<T>(TensorShape{1}, {value}) : Tensor::Scalar<T>(value);
}

std::optional<int64_t> TripCount(const Graph& graph, const Node& loop) {
  if (!loop.HasInput(0)) return std::nullopt;
  const Tensor* trips = graph.GetConstantInitializer(loop.inputs()[0], true);
  if (trips == nullptr || trips->dtype() != DataType::kInt64 || trips->NumElements() != 1) {
    return std::nullopt;
  }
  return trips->Data<int64_t>()[0];
}

// The body of `loop` when it can be unrolled: a constant trip count in [1, kMaxTrips], an initial
// condition that is true or absent, a condition output that is the condition input or always
// true, no nested subgraphs, and not too many nodes in all.
const Graph* UnrollableBody(const Graph& graph, const Node& loop) {
  const Attribute* body_attribute = loop.FindAttribute("body");
  if (body_attribute == nullptr || body_attribute->g == nullptr) return nullptr;
  const Graph& body = *body_attribute->g;
  if (loop.inputs().size() < 2) return nullptr;
  const auto trips = TripCount(graph, loop);
  if (!trips || *trips < 1 || *trips > kMaxTrips) return nullptr;
  if (loop.HasInput(1) && ConstantCondition(graph, loop.inputs()[1]) != true) return nullptr;
  const size_t carried = loop.inputs().size() - 2;
  if (body.inputs().size() != carried + 2 || body.outputs().size() < carried + 1 ||
      loop.outputs().size() != body.outputs().size() - 1) {
    return nullptr;
  }
  std::string condition = body.outputs()[0];
  while (const Node* identity = body.Producer(condition)) {
    if (identity->op_type() != "Identity" || identity->domain() != kOnnxDomain) break;
    condition = identity->inputs()[0];
  }
  if (condition != body.inputs()[1] && ConstantCondition(body, body.outputs()[0]) != true) {
    return nullptr;
  }
  if (HoldsSubgraphs(body) || body.NodeCount() * static_cast<size_t>(*trips) > kMaxUnrolledNodes) {
    return nullptr;
  }
  return &body;
}

// The Loop's outputs read the last iteration's carried values and the scan outputs stacked.
Status Unroll(Graph& graph, Node& loop, const Graph& body, int64_t trips) {
  const size_t carried_count = loop.inputs().size() - 2;
  const size_t scan_count = loop.outputs().size() - carried_count;
  const std::vector<std::string> loop_outputs = loop.outputs();
  std::vector<std::string> carried(loop.inputs().begin() + 2, loop.inputs().end());
  // The copies' names come from the Loop, which goes first: its outputs' names are reused.
  const std::unique_ptr<Graph> body_copy = body.Clone();
  Inliner inliner(graph, loop.name().empty() ? "loop" : loop.name());
  graph.RemoveNode(loop.index());
  const std::string condition = inliner.Constant(BodyInput<bool>(*body_copy, 1, true), "condition");
  std::vector<std::vector<std::string>> scanned(scan_count);
  for (int64_t iteration = 0; iteration < trips; ++iteration) {
    std::vector<std::string> inputs{
        inliner.Constant(BodyInput<int64_t>(*body_copy, 0, iteration), "iteration"), condition};
    inputs.insert(inputs.end(), carried.begin(), carried.end());
    ORT_ASSIGN_OR_RETURN(std::vector<std::string> outputs,
                         inliner.Inline(*body_copy, inputs, std::to_string(iteration)));
    carried.assign(outputs.begin() + 1, outputs.begin() + 1 + carried_count);
    for (size_t i = 0; i < scan_count; ++i) scanned[i].push_back(outputs[1 + carried_count + i]);
  }
  for (size_t i = 0; i < carried_count; ++i) {
    if (!loop_outputs[i].empty()) inliner.AddNode("Identity", {carried[i]}, loop_outputs[i]);
  }
  const bool axes_input = graph.OpsetVersion("") >= 13;
  for (size_t i = 0; i < scan_count; ++i) {
    const std::string& output = loop_outputs[carried_count + i];
    if (output.empty()) continue;
    std::vector<std::string> stacked;
    for (const auto& value : scanned[i]) {
      stacked.push_back(graph.UniqueValueName(fmt::format("{}_iteration", output)));
      std::vector<std::string> inputs{value};
      std::vector<Attribute> attributes;
      if (axes_input) {
        inputs.push_back(inliner.Constant(Tensor::FromVector<int64_t>({1}, {0}), "axes"));
      } else {
        attributes.push_back(Attribute::Ints("axes", {0}));
      }
      inliner.AddNode("Unsqueeze", std::move(inputs), stacked.back(), std::move(attributes));
    }
    std::vector<Attribute> axis;
    axis.push_back(Attribute::Int("axis", 0));
    inliner.AddNode("Concat", std::move(stacked), output, std::move(axis));
  }
  return Status::OK();
}

// The branch an If with a constant condition takes, unless it holds subgraphs.
const Graph* TakenBranch(const Graph& graph, const Node& node) {
  const auto condition =
      node.HasInput(0) ? ConstantCondition(graph, node.inputs()[0]) : std::nullopt;
  if (!condition) return nullptr;
  const Attribute* branch = node.FindAttribute(*condition ? "then_branch" : "else_branch");
  if (branch == nullptr || branch->g == nullptr || !branch->g->inputs().empty() ||
      branch->g->outputs().size() != node.outputs().size() || HoldsSubgraphs(*branch->g)) {
    return nullptr;
  }
  return branch->g.get();
}

Status InlineBranch(Graph& graph, Node& node, const Graph& branch) {
  const std::vector<std::string> if_outputs = node.outputs();
  const std::unique_ptr<Graph> branch_copy = branch.Clone();
  Inliner inliner(graph, node.name().empty() ? "if" : node.name());
  graph.RemoveNode(node.index());
  ORT_ASSIGN_OR_RETURN(std::vector<std::string> outputs, inliner.Inline(*branch_copy, {}, "taken"));
  for (size_t i = 0; i < if_outputs.size(); ++i) {
    if (!if_outputs[i].empty()) inliner.AddNode("Identity", {outputs[i]}, if_outputs[i]);
  }
  return Status::OK();
}

class InlineControlFlow final : public GraphTransformer {
 public:
  InlineControlFlow() : GraphTransformer("inline_control_flow", OptimizationLevel::kBasic) {}

  Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const override {
    bool inlined = false;
    for (Node* node : graph.Nodes()) {
      if (node->domain() != kOnnxDomain) continue;
      if (node->op_type() == "Loop") {
        if (const Graph* body = UnrollableBody(graph, *node)) {
          ORT_RETURN_IF_ERROR(Unroll(graph, *node, *body, *TripCount(graph, *node)));
          inlined = true;
        }
      } else if (node->op_type() == "If") {
        if (const Graph* branch = TakenBranch(graph, *node)) {
          ORT_RETURN_IF_ERROR(InlineBranch(graph, *node, *branch));
          inlined = true;
        }
      }
    }
    if (inlined) {
      graph.ResolveOuterScope();
      changed = true;
    }
    return ApplyToSubgraphs(graph, context, changed);
  }
};

}  // namespace

std::unique_ptr<GraphTransformer> CreateInlineControlFlow() {
  return std::make_unique<InlineControlFlow>();
}

}  // namespace ort
