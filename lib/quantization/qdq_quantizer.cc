#include "lib/quantization/qdq_quantizer.h"

#include <algorithm>
#include <set>

#include "lib/quantization/graph_edits.h"

namespace ort {
namespace {

const std::set<std::string> kWeighted = {"Conv", "Gemm", "MatMul"};
const std::set<std::string> kOperands = {"Add", "Mul", "Concat"};
const std::set<std::string> kPooling = {"AveragePool", "GlobalAveragePool"};
// Ops whose output holds (a selection of) their input's values: quantized only behind a
// quantized input, with its parameters, so that the Q/DQ pairs around them cancel.
const std::set<std::string> kDataMovement = {"MaxPool", "Resize",  "Reshape",  "Transpose",
                                             "Flatten", "Squeeze", "Unsqueeze"};
const std::set<std::string> kClipping = {"Relu", "Clip"};

class Planner {
 public:
  Planner(const Graph& graph, const QuantizeOptions& options) : graph_(graph), options_(options) {}

  Result<QdqPlan> Plan() {
    ORT_RETURN_IF_ERROR(CheckExcludedNodes(graph_, options_));
    ORT_ASSIGN_OR_RETURN(std::vector<NodeIndex> order, graph_.TopologicalOrder());
    for (const NodeIndex index : order) {
      const Node& node = *graph_.GetNode(index);
      if (!Selected(node, options_)) continue;
      const std::string& op = node.op_type();
      if (kDataMovement.count(op)) {
        PlanDataMovement(node);
      } else if (QuantizesInputs(node)) {
        Quantize(node);
        for (const std::string& input : ActivationInputs(node)) AddCalibrated(input);
        PlanOutput(node);
      }
    }
    plan_.counts = CountQuantized(graph_, quantized_nodes_);
    return std::move(plan_);
  }

 private:
  // A float value computed or fed at run time that may get a Q/DQ pair (graph outputs keep
  // their float producer: a consumer of the model reads them).
  bool IsActivation(const std::string& name) const {
    if (name.empty() || graph_.GetInitializer(name) != nullptr || graph_.IsGraphOutput(name)) {
      return false;
    }
    const ValueType* type = graph_.FindTypeInScope(name);
    return type != nullptr && type->IsTensor() && type->elem_type == DataType::kFloat;
  }

  bool IsQuantized(const std::string& name) const {
    return calibrated_.count(name) || plan_.shared.count(name);
  }

  std::vector<std::string> ActivationInputs(const Node& node) const {
    std::vector<std::string> inputs;
    const size_t count = kWeighted.count(node.op_type()) || kPooling.count(node.op_type())
                             ? std::min<size_t>(node.inputs().size(), 2)
                             : node.inputs().size();
    for (size_t i = 0; i < count; ++i) {
      if (IsActivation(node.inputs()[i])) inputs.push_back(node.inputs()[i]);
    }
    return inputs;
  }

  bool QuantizesInputs(const Node& node) const {
    const std::string& op = node.op_type();
    const auto& inputs = node.inputs();
    if (inputs.empty() || !IsActivation(inputs[0])) return false;
    if (op == "Conv" || op == "Gemm") {
      const Tensor* weight = inputs.size() > 1 ? FloatConstant(graph_, inputs[1]) : nullptr;
      return weight != nullptr && weight->shape().rank() >= (op == "Conv" ? 3u : 2u);
    }
    if (op == "MatMul") {
      return inputs.size() == 2 &&
             (FloatConstant(graph_, inputs[1]) != nullptr || IsActivation(inputs[1]));
    }
    if (kOperands.count(op)) {
      return std::all_of(inputs.begin(), inputs.end(), [&](const std::string& input) {
        return IsActivation(input) || FloatConstant(graph_, input) != nullptr;
      });
    }
    return kPooling.count(op) > 0;
  }

  void Quantize(const Node& node) {
    quantized_nodes_.insert(node.index());
    plan_.nodes.push_back(node.index());
  }

  void AddCalibrated(const std::string& name) {
    if (IsQuantized(name)) return;
    calibrated_.insert(name);
    plan_.calibrated.push_back(name);
  }

  // The output is quantized past a Relu or Clip that alone reads it: the quantization clips as
  // they do, so an engine drops them when it fuses the group, and the range is the clipped one.
  void PlanOutput(const Node& node) {
    if (!node.HasOutput(0)) return;
    std::string output = node.outputs()[0];
    const auto readers = graph_.Consumers(output);
    if (readers.size() == 1 && kClipping.count(readers[0]->op_type()) &&
        Selected(*readers[0], options_) && !graph_.IsGraphOutput(output) &&
        readers[0]->inputs()[0] == output && readers[0]->HasOutput(0)) {
      Quantize(*readers[0]);
      output = readers[0]->outputs()[0];
    }
    if (IsActivation(output)) AddCalibrated(output);
  }

  void PlanDataMovement(const Node& node) {
    if (node.inputs().empty() || !IsQuantized(node.inputs()[0])) return;
    // MaxPool's optional Indices output is not data.
    if (node.outputs().size() > 1 && node.HasOutput(1)) return;
    Quantize(node);
    const std::string& output = node.outputs()[0];
    if (IsActivation(output) && !IsQuantized(output)) plan_.shared[output] = node.inputs()[0];
  }

  const Graph& graph_;
  const QuantizeOptions& options_;
  QdqPlan plan_;
  std::set<std::string> calibrated_;
  std::set<NodeIndex> quantized_nodes_;
};

// The parameters of every quantized activation: calibrated ones from their range, shared ones
// from their source's.
Result<std::map<std::string, QuantParams>> ActivationParams(
    const QdqPlan& plan, const std::map<std::string, FloatRange>& ranges,
    const QuantizeOptions& options) {
  std::map<std::string, QuantParams> params;
  for (const std::string& name : plan.calibrated) {
    auto range = ranges.find(name);
    if (range == ranges.end()) {
      return ORT_ERROR(kInvalidArgument, "no calibrated range for tensor '{}'", name);
    }
    params[name] =
        ComputeQuantParams(range->second, DataType::kUint8, options.symmetric_activations);
  }
  for (const auto& [output, input] : plan.shared) {
    std::string source = input;
    while (!params.count(source) && plan.shared.count(source)) source = plan.shared.at(source);
    if (!params.count(source)) {
      return ORT_ERROR(kInvalidArgument, "tensor '{}' shares parameters of unquantized '{}'",
                       output, source);
    }
    params[output] = params.at(source);
  }
  return params;
}

// The weight axis holding output channels, or none for per-tensor weights.
std::optional<int64_t> WeightAxis(const Node& node, const Tensor& weight,
                                  const QuantizeOptions& options) {
  if (!options.per_channel) return std::nullopt;
  if (node.op_type() == "Conv") return 0;
  if (weight.shape().rank() != 2) return std::nullopt;
  if (node.op_type() == "Gemm") {
    const Attribute* trans_b = node.FindAttribute("transB");
    return trans_b != nullptr && trans_b->i != 0 ? 0 : 1;
  }
  return 1;
}

class Rewriter {
 public:
  Rewriter(Graph& graph, const std::map<std::string, QuantParams>& params,
           const QuantizeOptions& options)
      : graph_(graph), params_(params), options_(options) {}

  Status QuantizeInitializers(Node& node) {
    const std::string& op = node.op_type();
    if (kWeighted.count(op) && FloatConstant(graph_, node.inputs()[1]) != nullptr) {
      return QuantizeWeightAndBias(node);
    }
    if (!kOperands.count(op)) return Status::OK();
    for (size_t i = 0; i < node.inputs().size(); ++i) {
      const std::string input = node.inputs()[i];
      const Tensor* constant = FloatConstant(graph_, input);
      if (constant == nullptr) continue;
      auto quantized =
          QuantizeConstant(*constant, DataType::kUint8, options_.symmetric_activations);
      if (!quantized.ok()) return quantized.status().WithNode(node.Describe());
      graph_.SetNodeInput(node, i, AddDequantizedInitializer(graph_, input, *quantized, true));
      replaced_.insert(input);
    }
    return Status::OK();
  }

  void QuantizeActivation(const std::string& name, const QuantParams& params) {
    const std::string scale = FreshValueName(graph_, name + "_scale");
    graph_.AddInitializer(scale, Tensor::Scalar<float>(params.scale));
    const std::string zero_point = FreshValueName(graph_, name + "_zero_point");
    graph_.AddInitializer(zero_point,
                          params.type == DataType::kUint8
                              ? Tensor::Scalar<uint8_t>(static_cast<uint8_t>(params.zero_point))
                              : Tensor::Scalar<int8_t>(static_cast<int8_t>(params.zero_point)));
    const std::string quantized = FreshValueName(graph_, name + "_quantized");
    const std::string dequantized = FreshValueName(graph_, name + "_dequantized");
    graph_.ReplaceAllUses(name, dequantized);
    graph_.AddNode({graph_.UniqueNodeName(name + "_QuantizeLinear"),
                    "QuantizeLinear",
                    "",
                    {name, scale, zero_point},
                    {quantized},
                    {}});
    graph_.AddNode({graph_.UniqueNodeName(name + "_DequantizeLinear"),
                    "DequantizeLinear",
                    "",
                    {quantized, scale, zero_point},
                    {dequantized},
                    {}});
  }

  const std::set<std::string>& replaced() const { return replaced_; }
  bool per_channel_used() const { return per_channel_used_; }

 private:
  Status QuantizeWeightAndBias(Node& node) {
    const std::string weight_name = node.inputs()[1];
    const Tensor& weight = *FloatConstant(graph_, weight_name);
    const std::optional<int64_t> axis = WeightAxis(node, weight, options_);
    auto quantized = QuantizeWeight(weight, options_.weight_type, axis);
    if (!quantized.ok()) return quantized.status().WithNode(node.Describe());
    per_channel_used_ = per_channel_used_ || axis.has_value();
    const std::string key = weight_name + "/" + (axis ? std::to_string(*axis) : "tensor");
    auto cached = weights_.find(key);
    if (cached == weights_.end()) {
      cached =
          weights_.emplace(key, AddDequantizedInitializer(graph_, weight_name, *quantized, true))
              .first;
    }
    graph_.SetNodeInput(node, 1, cached->second);
    replaced_.insert(weight_name);

    if (node.op_type() == "MatMul" || !node.HasInput(2)) return Status::OK();
    const std::string bias_name = node.inputs()[2];
    const Tensor* bias = FloatConstant(graph_, bias_name);
    const int64_t channels = axis ? weight.shape()[static_cast<size_t>(*axis)] : 0;
    if (bias == nullptr || bias->shape().rank() != 1 || (axis && bias->NumElements() != channels)) {
      return Status::OK();
    }
    auto input = params_.find(node.inputs()[0]);
    if (input == params_.end()) return Status::OK();
    auto quantized_bias = QuantizeBias(*bias, input->second.scale, quantized->scales);
    if (!quantized_bias.ok()) return quantized_bias.status().WithNode(node.Describe());
    graph_.SetNodeInput(node, 2,
                        AddDequantizedInitializer(graph_, bias_name, *quantized_bias, false));
    replaced_.insert(bias_name);
    return Status::OK();
  }

  Graph& graph_;
  const std::map<std::string, QuantParams>& params_;
  const QuantizeOptions& options_;
  std::map<std::string, std::string> weights_;  // weight/axis -> its DequantizeLinear output
  std::set<std::string> replaced_;
  bool per_channel_used_ = false;
};

}  // namespace

Result<QdqPlan> PlanQdq(const Graph& graph, const QuantizeOptions& options) {
  return Planner(graph, options).Plan();
}

Status ApplyQdq(Model& model, const QdqPlan& plan, const std::map<std::string, FloatRange>& ranges,
                const QuantizeOptions& options) {
  Graph& graph = model.graph();
  ORT_RETURN_IF_ERROR(CheckOpset(graph, 10, "QDQ quantization (QuantizeLinear)"));
  ORT_ASSIGN_OR_RETURN(auto params, ActivationParams(plan, ranges, options));
  Rewriter rewriter(graph, params, options);
  // Weights and biases first: a bias is scaled by its node's input scale, found by the input's
  // name before the activations are renamed.
  for (const NodeIndex index : plan.nodes) {
    ORT_RETURN_IF_ERROR(rewriter.QuantizeInitializers(*graph.GetNode(index)));
  }
  if (rewriter.per_channel_used()) {
    ORT_RETURN_IF_ERROR(CheckOpset(graph, 13, "per-channel weights (DequantizeLinear axis)"));
  }
  for (const auto& [name, tensor_params] : params) {
    rewriter.QuantizeActivation(name, tensor_params);
  }
  RemoveUnusedInitializers(graph, rewriter.replaced());
  return Status::OK();
}

}  // namespace ort
