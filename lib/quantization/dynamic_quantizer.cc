#include "lib/quantization/dynamic_quantizer.h"

#include <map>
#include <set>

#include "lib/quantization/graph_edits.h"

namespace ort {
namespace {

struct DynamicActivation {
  std::string quantized;
  std::string scale;
  std::string zero_point;
};

struct StoredWeight {
  std::string data;
  std::string scale;
  std::string zero_point;
};

int64_t IntAttribute(const Node& node, std::string_view name, int64_t fallback) {
  const Attribute* attribute = node.FindAttribute(name);
  return attribute != nullptr ? attribute->i : fallback;
}

float FloatAttribute(const Node& node, std::string_view name, float fallback) {
  const Attribute* attribute = node.FindAttribute(name);
  return attribute != nullptr ? attribute->f : fallback;
}

bool IsFloatActivation(const Graph& graph, const std::string& name) {
  if (name.empty() || graph.GetInitializer(name) != nullptr) return false;
  const ValueType* type = graph.FindTypeInScope(name);
  return type != nullptr && type->IsTensor() && type->elem_type == DataType::kFloat;
}

// MatMul(A, W) and Gemm(A, W[, C]) with a float activation A and a 2-D constant W; a Gemm only
// without transA and scaling, which the integer product would have to reproduce.
bool Eligible(const Graph& graph, const Node& node) {
  const auto& inputs = node.inputs();
  if (inputs.size() < 2 || !IsFloatActivation(graph, inputs[0])) return false;
  const Tensor* weight = FloatConstant(graph, inputs[1]);
  if (weight == nullptr || weight->shape().rank() != 2) return false;
  if (node.op_type() == "MatMul") return true;
  return IntAttribute(node, "transA", 0) == 0 && FloatAttribute(node, "alpha", 1) == 1 &&
         (!node.HasInput(2) || FloatAttribute(node, "beta", 1) == 1);
}

Result<Tensor> Transposed(const Tensor& weight) {
  const int64_t rows = weight.shape()[0];
  const int64_t columns = weight.shape()[1];
  ORT_ASSIGN_OR_RETURN(Tensor result, Tensor::Allocate(DataType::kFloat, {columns, rows}));
  const float* source = weight.Data<float>();
  float* target = result.MutableData<float>();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < columns; ++c) target[c * rows + r] = source[r * columns + c];
  }
  return result;
}

class DynamicRewriter {
 public:
  DynamicRewriter(Graph& graph, const QuantizeOptions& options)
      : graph_(graph), options_(options) {}

  Status Rewrite(NodeIndex index) {
    const Node& node = *graph_.GetNode(index);
    const std::string description = node.Describe();
    const std::string node_name = node.name();
    const std::string activation = node.inputs()[0];
    const std::string weight_name = node.inputs()[1];
    const std::string bias = node.HasInput(2) ? node.inputs()[2] : "";
    const std::string output = node.outputs()[0];
    const bool transposed = node.op_type() == "Gemm" && IntAttribute(node, "transB", 0) != 0;

    auto weight = StoreWeight(weight_name, transposed);
    if (!weight.ok()) return weight.status().WithNode(description);
    graph_.RemoveNode(index);
    const DynamicActivation& a = QuantizeActivation(activation);

    const std::string base = node_name.empty() ? output : node_name;
    const std::string product = FreshValueName(graph_, output + "_MatMulInteger");
    Add(base + "_MatMulInteger", "MatMulInteger",
        {a.quantized, weight->data, a.zero_point, weight->zero_point}, {product});
    const std::string cast = FreshValueName(graph_, output + "_cast");
    Add(base + "_Cast", "Cast", {product}, {cast},
        Attribute::Int("to", static_cast<int64_t>(DataType::kFloat)));
    const std::string scales = FreshValueName(graph_, output + "_scales");
    Add(base + "_scales_Mul", "Mul", {a.scale, weight->scale}, {scales});
    const std::string scaled = bias.empty() ? output : FreshValueName(graph_, output + "_unbiased");
    Add(base + "_Mul", "Mul", {cast, scales}, {scaled});
    if (!bias.empty()) Add(base + "_Add", "Add", {scaled, bias}, {output});
    replaced_.insert(weight_name);
    return Status::OK();
  }

  const std::set<std::string>& replaced() const { return replaced_; }

 private:
  void Add(const std::string& name, const std::string& op_type, std::vector<std::string> inputs,
           std::vector<std::string> outputs, std::optional<Attribute> attribute = std::nullopt) {
    NodeSpec spec{graph_.UniqueNodeName(name), op_type, "", std::move(inputs),
                  std::move(outputs),          {}};
    if (attribute) spec.attributes.push_back(std::move(*attribute));
    graph_.AddNode(std::move(spec));
  }

  // One DynamicQuantizeLinear per activation, shared by every MatMul reading it.
  const DynamicActivation& QuantizeActivation(const std::string& name) {
    auto found = activations_.find(name);
    if (found != activations_.end()) return found->second;
    DynamicActivation a{FreshValueName(graph_, name + "_quantized"),
                        FreshValueName(graph_, name + "_scale"),
                        FreshValueName(graph_, name + "_zero_point")};
    Add(name + "_DynamicQuantizeLinear", "DynamicQuantizeLinear", {name},
        {a.quantized, a.scale, a.zero_point});
    return activations_.emplace(name, std::move(a)).first->second;
  }

  // The weight as MatMulInteger's B ([K, N]), quantized per tensor or per column.
  Result<StoredWeight> StoreWeight(const std::string& name, bool transposed) {
    const std::string key = name + (transposed ? "/T" : "");
    auto found = weights_.find(key);
    if (found != weights_.end()) return found->second;
    Tensor weight = *FloatConstant(graph_, name);
    if (transposed) {
      ORT_ASSIGN_OR_RETURN(weight, Transposed(weight));
    }
    const std::optional<int64_t> axis =
        options_.per_channel ? std::optional<int64_t>(1) : std::nullopt;
    ORT_ASSIGN_OR_RETURN(QuantizedInitializer quantized,
                         QuantizeWeight(weight, options_.weight_type, axis));
    StoredWeight stored{FreshValueName(graph_, name + "_quantized"), "", ""};
    graph_.AddInitializer(stored.data, std::move(quantized.data));
    stored.scale = FreshValueName(graph_, name + "_scale");
    graph_.AddInitializer(stored.scale, std::move(quantized.scale));
    stored.zero_point = FreshValueName(graph_, name + "_zero_point");
    graph_.AddInitializer(stored.zero_point, std::move(quantized.zero_point));
    return weights_.emplace(key, std::move(stored)).first->second;
  }

  Graph& graph_;
  const QuantizeOptions& options_;
  std::map<std::string, DynamicActivation> activations_;
  std::map<std::string, StoredWeight> weights_;
  std::set<std::string> replaced_;
};

}  // namespace

Result<std::vector<OpTypeCount>> QuantizeDynamic(Model& model, const QuantizeOptions& options) {
  Graph& graph = model.graph();
  ORT_RETURN_IF_ERROR(CheckOpset(graph, 11, "dynamic quantization (DynamicQuantizeLinear)"));
  ORT_RETURN_IF_ERROR(CheckExcludedNodes(graph, options));
  std::set<NodeIndex> selected;
  for (const Node* node : graph.Nodes()) {
    if (Selected(*node, options) && Eligible(graph, *node)) selected.insert(node->index());
  }
  std::vector<OpTypeCount> counts = CountQuantized(graph, selected);
  DynamicRewriter rewriter(graph, options);
  for (const NodeIndex index : selected) ORT_RETURN_IF_ERROR(rewriter.Rewrite(index));
  RemoveUnusedInitializers(graph, rewriter.replaced());
  return counts;
}

}  // namespace ort
