#include "lib/onnx/element_types.h"

#include <set>
#include <string_view>

namespace ort {
namespace {

// Ops whose every output has input 0's element type.
const std::set<std::string_view>& LikeFirstInput() {
  static const std::set<std::string_view> ops = {"Abs",
                                                 "Acos",
                                                 "Acosh",
                                                 "Add",
                                                 "Asin",
                                                 "Asinh",
                                                 "Atan",
                                                 "Atanh",
                                                 "AveragePool",
                                                 "BitShift",
                                                 "BitwiseAnd",
                                                 "BitwiseNot",
                                                 "BitwiseOr",
                                                 "BitwiseXor",
                                                 "Ceil",
                                                 "Celu",
                                                 "Clip",
                                                 "Concat",
                                                 "Conv",
                                                 "ConvTranspose",
                                                 "Cos",
                                                 "Cosh",
                                                 "CumSum",
                                                 "DepthToSpace",
                                                 "Div",
                                                 "Einsum",
                                                 "Elu",
                                                 "Erf",
                                                 "Exp",
                                                 "Expand",
                                                 "Flatten",
                                                 "Floor",
                                                 "Gather",
                                                 "GatherElements",
                                                 "GatherND",
                                                 "Gelu",
                                                 "Gemm",
                                                 "GlobalAveragePool",
                                                 "GlobalLpPool",
                                                 "GlobalMaxPool",
                                                 "GroupNormalization",
                                                 "HardSigmoid",
                                                 "HardSwish",
                                                 "Hardmax",
                                                 "Identity",
                                                 "InstanceNormalization",
                                                 "LRN",
                                                 "LeakyRelu",
                                                 "Log",
                                                 "LogSoftmax",
                                                 "LpNormalization",
                                                 "LpPool",
                                                 "MatMul",
                                                 "Max",
                                                 "Mean",
                                                 "MeanVarianceNormalization",
                                                 "Min",
                                                 "Mish",
                                                 "Mod",
                                                 "Mul",
                                                 "Neg",
                                                 "PRelu",
                                                 "Pad",
                                                 "Pow",
                                                 "Reciprocal",
                                                 "ReduceL1",
                                                 "ReduceL2",
                                                 "ReduceLogSum",
                                                 "ReduceLogSumExp",
                                                 "ReduceMax",
                                                 "ReduceMean",
                                                 "ReduceMin",
                                                 "ReduceProd",
                                                 "ReduceSum",
                                                 "ReduceSumSquare",
                                                 "Relu",
                                                 "Reshape",
                                                 "Resize",
                                                 "ReverseSequence",
                                                 "Round",
                                                 "ScatterElements",
                                                 "ScatterND",
                                                 "Selu",
                                                 "Shrink",
                                                 "Sigmoid",
                                                 "Sign",
                                                 "Sin",
                                                 "Sinh",
                                                 "Slice",
                                                 "Softmax",
                                                 "Softplus",
                                                 "Softsign",
                                                 "SpaceToDepth",
                                                 "Split",
                                                 "Sqrt",
                                                 "Squeeze",
                                                 "Sub",
                                                 "Sum",
                                                 "Tan",
                                                 "Tanh",
                                                 "ThresholdedRelu",
                                                 "Tile",
                                                 "Transpose",
                                                 "Trilu",
                                                 "Unsqueeze",
                                                 "Upsample"};
  return ops;
}

// Ops with a bool output.
const std::set<std::string_view>& BoolOutput() {
  static const std::set<std::string_view> ops = {"And",   "Equal", "Greater", "GreaterOrEqual",
                                                 "IsInf", "IsNaN", "Less",    "LessOrEqual",
                                                 "Not",   "Or",    "Xor"};
  return ops;
}

// Ops with an int64 output.
const std::set<std::string_view>& Int64Output() {
  static const std::set<std::string_view> ops = {"ArgMax", "ArgMin", "NonZero", "Shape", "Size"};
  return ops;
}

DataType TypeOf(const Graph& graph, const Node& node, size_t input) {
  if (!node.HasInput(input)) return DataType::kUndefined;
  const ValueType* type = graph.FindTypeInScope(node.inputs()[input]);
  return type != nullptr && type->IsTensor() ? type->elem_type : DataType::kUndefined;
}

DataType FromAttribute(const Node& node, std::string_view name) {
  const Attribute* attribute = node.FindAttribute(name);
  if (attribute == nullptr || attribute->type != AttributeType::kInt ||
      !IsKnownDataType(static_cast<int32_t>(attribute->i))) {
    return DataType::kUndefined;
  }
  return static_cast<DataType>(attribute->i);
}

// Constant's type from whichever value attribute it has.
DataType ConstantType(const Node& node) {
  for (const auto& [name, attribute] : node.attributes()) {
    if (name == "value") return attribute.t.dtype();
    if (name == "value_float" || name == "value_floats") return DataType::kFloat;
    if (name == "value_int" || name == "value_ints") return DataType::kInt64;
    if (name == "value_string" || name == "value_strings") return DataType::kString;
  }
  return DataType::kUndefined;
}

// The element type of output `index` of `node`, or kUndefined where no rule applies.
DataType OutputType(const Graph& graph, const Node& node, size_t index) {
  const std::string& op = node.op_type();
  if (Int64Output().count(op) > 0) return DataType::kInt64;
  if (BoolOutput().count(op) > 0) return DataType::kBool;
  if (op == "Cast") return FromAttribute(node, "to");
  if (op == "CastLike" || op == "Where") return TypeOf(graph, node, 1);
  if (op == "Constant") return ConstantType(node);
  if (op == "ConstantOfShape") {
    const Attribute* value = node.FindAttribute("value");
    return value != nullptr ? value->t.dtype() : DataType::kFloat;
  }
  if (op == "Range") return TypeOf(graph, node, 0);
  // Second outputs: Dropout's mask, TopK's and MaxPool's indices.
  if (op == "Dropout") return index == 0 ? TypeOf(graph, node, 0) : DataType::kBool;
  if (op == "TopK" || op == "MaxPool") {
    return index == 0 ? TypeOf(graph, node, 0) : DataType::kInt64;
  }
  // LayerNormalization's mean and inverse deviation are in stash_type; only Y is typed here.
  if (op == "LayerNormalization" || op == "BatchNormalization") {
    return index == 0 ? TypeOf(graph, node, 0) : DataType::kUndefined;
  }
  if (LikeFirstInput().count(op) > 0) return TypeOf(graph, node, 0);
  return DataType::kUndefined;
}

}  // namespace

void InferElementTypes(Graph& graph) {
  const auto order = graph.TopologicalOrder();
  if (!order.ok()) return;
  for (NodeIndex index : *order) {
    const Node* node = graph.GetNode(index);
    if (node == nullptr || !node->domain().empty() || !node->Subgraphs().empty()) continue;
    for (size_t i = 0; i < node->outputs().size(); ++i) {
      const std::string& output = node->outputs()[i];
      if (output.empty()) continue;
      const ValueType* known = graph.FindTypeInScope(output);
      if (known != nullptr && known->kind != ValueType::Kind::kUnknown) continue;
      const DataType type = OutputType(graph, *node, i);
      if (type != DataType::kUndefined) graph.SetValueType(output, ValueType::Tensor(type));
    }
  }
}

}  // namespace ort
