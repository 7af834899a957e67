// Shape rules of elementwise ops: same-shape unary ops, numpy broadcasting, and the arithmetic,
// comparison and selection exporters apply to shape values (Add/Sub/Mul/Div/Min/Max, Equal,
// Where, Cast, Neg).
#include <climits>
#include <functional>

#include "lib/shape/shape_rules.h"

namespace ort {
namespace {

using BinaryOp = std::optional<DimExpr> (*)(const DimExpr&, const DimExpr&);

void SameShape(RuleContext& context) { context.CopyInput(0, 0); }

// Output 0 is input 0's shape, values included (Identity, and the ops that pass integers on).
void SameShapeAndValues(RuleContext& context) { context.CopyInput(0, 0, true); }

// Elementwise `op` over the known values of every input, broadcasting 1-element operands; sets
// output 0's values when the (already set) output shape is 0-D or 1-D of the result's length.
void SetElementwiseValues(
    RuleContext& context, const std::vector<size_t>& inputs,
    const std::function<std::optional<DimExpr>(const std::vector<DimExpr>&)>& op, DataType type) {
  TensorFacts& output = context.outputs()[0];
  if (!output.shape || output.shape->size() > 1) return;
  size_t length = 1;
  std::vector<const std::vector<DimExpr>*> operands;
  for (size_t input : inputs) {
    const std::vector<DimExpr>* values = context.Values(input);
    if (values == nullptr || values->empty()) return;
    if (values->size() != 1) {
      if (length != 1 && length != values->size()) return;
      length = values->size();
    }
    operands.push_back(values);
  }
  const bool scalar = output.shape->empty();
  if ((scalar && length != 1) ||
      (!scalar && output.shape->front().AsConstant() != static_cast<int64_t>(length))) {
    return;
  }
  std::vector<DimExpr> result;
  for (size_t i = 0; i < length; ++i) {
    std::vector<DimExpr> arguments;
    for (const auto* values : operands) arguments.push_back((*values)[values->size() == 1 ? 0 : i]);
    auto value = op(arguments);
    if (!value) return;
    // int32 arithmetic wraps where these expressions do not; int32 values are all numbers.
    if (type == DataType::kInt32) {
      const auto constant = value->AsConstant();
      if (!constant || *constant < INT32_MIN || *constant > INT32_MAX) return;
    }
    result.push_back(std::move(*value));
  }
  context.SetValues(0, std::move(result), type, scalar);
}

void Broadcast(RuleContext& context) {
  std::vector<std::vector<DimExpr>> shapes;
  for (size_t i = 0; i < context.input_count(); ++i) {
    const std::vector<DimExpr>* shape = context.Shape(i);
    if (shape == nullptr) return;
    shapes.push_back(*shape);
  }
  if (shapes.empty()) return;
  if (auto shape = BroadcastShapes(context, shapes)) context.SetShape(0, std::move(*shape));
}

DataType ValuesType(RuleContext& context, size_t input) {
  const TensorFacts* facts = context.Input(input);
  return facts != nullptr ? facts->value_type : DataType::kUndefined;
}

template <BinaryOp kOp>
void BroadcastArithmetic(RuleContext& context) {
  Broadcast(context);
  if (context.input_count() != 2 || ValuesType(context, 0) != ValuesType(context, 1) ||
      ValuesType(context, 0) == DataType::kBool) {
    return;
  }
  SetElementwiseValues(
      context, {0, 1}, [](const std::vector<DimExpr>& x) { return kOp(x[0], x[1]); },
      ValuesType(context, 0));
}

// ONNX integer division truncates toward zero; that is floor division when a >= 0 and b > 0.
std::optional<DimExpr> TruncDiv(const DimExpr& a, const DimExpr& b) {
  const auto a_constant = a.AsConstant(), b_constant = b.AsConstant();
  if (a_constant && b_constant) {
    if (*b_constant == 0 || (*a_constant == INT64_MIN && *b_constant == -1)) return std::nullopt;
    return DimExpr::Constant(*a_constant / *b_constant);
  }
  if (!b_constant || *b_constant < 1 || !a.IsNonNegative()) return std::nullopt;
  return FloorDiv(a, *b_constant);
}

// 1 when a == b is provable, 0 when a != b is, else nullopt.
std::optional<DimExpr> Equal(const DimExpr& a, const DimExpr& b) {
  if (a == b) return DimExpr::Constant(1);
  const auto difference = Sub(a, b), negated = Sub(b, a);
  if ((difference && difference->IsPositive()) || (negated && negated->IsPositive())) {
    return DimExpr::Constant(0);
  }
  return std::nullopt;
}

// 1 when a < b is provable, 0 when a >= b is.
std::optional<DimExpr> Less(const DimExpr& a, const DimExpr& b) {
  const auto difference = Sub(b, a);
  if (difference && difference->IsPositive()) return DimExpr::Constant(1);
  const auto negated = Sub(a, b);
  if (negated && negated->IsNonNegative()) return DimExpr::Constant(0);
  return std::nullopt;
}

template <bool kSwap, bool kNegate>
void Compare(RuleContext& context) {
  Broadcast(context);
  if (context.input_count() != 2 || ValuesType(context, 0) != ValuesType(context, 1)) return;
  SetElementwiseValues(
      context, {0, 1},
      [](const std::vector<DimExpr>& x) -> std::optional<DimExpr> {
        auto result = kSwap ? Less(x[1], x[0]) : Less(x[0], x[1]);
        if (!result || !kNegate) return result;
        return DimExpr::Constant(1 - *result->AsConstant());
      },
      DataType::kBool);
}

void EqualRule(RuleContext& context) {
  Broadcast(context);
  if (context.input_count() != 2 || ValuesType(context, 0) != ValuesType(context, 1)) return;
  SetElementwiseValues(
      context, {0, 1}, [](const std::vector<DimExpr>& x) { return Equal(x[0], x[1]); },
      DataType::kBool);
}

template <bool kMax>
void MinMax(RuleContext& context) {
  Broadcast(context);
  if (context.input_count() == 0) return;
  const DataType type = ValuesType(context, 0);
  std::vector<size_t> inputs;
  for (size_t i = 0; i < context.input_count(); ++i) {
    if (ValuesType(context, i) != type || type == DataType::kBool) return;
    inputs.push_back(i);
  }
  SetElementwiseValues(
      context, inputs,
      [](const std::vector<DimExpr>& x) -> std::optional<DimExpr> {
        std::optional<DimExpr> result = x[0];
        for (size_t i = 1; i < x.size() && result; ++i) {
          result = kMax ? ProvableMax(*result, x[i]) : ProvableMin(*result, x[i]);
        }
        return result;
      },
      type);
}

void Where(RuleContext& context) {
  Broadcast(context);
  if (context.input_count() != 3 || ValuesType(context, 1) != ValuesType(context, 2)) return;
  SetElementwiseValues(
      context, {0, 1, 2},
      [](const std::vector<DimExpr>& x) -> std::optional<DimExpr> {
        const auto condition = x[0].AsConstant();
        if (!condition) return std::nullopt;
        return *condition != 0 ? x[1] : x[2];
      },
      ValuesType(context, 1));
}

void Neg(RuleContext& context) {
  context.CopyInput(0, 0);
  const DataType type = ValuesType(context, 0);
  if (type == DataType::kBool) return;
  SetElementwiseValues(
      context, {0}, [](const std::vector<DimExpr>& x) { return Sub(DimExpr(), x[0]); }, type);
}

// Integers keep their values through Cast to a type that holds them.
void Cast(RuleContext& context) {
  context.CopyInput(0, 0);
  const auto to = static_cast<DataType>(context.IntAttribute("to", 0));
  const DataType from = ValuesType(context, 0);
  if (from == DataType::kUndefined) return;
  SetElementwiseValues(
      context, {0},
      [to](const std::vector<DimExpr>& x) -> std::optional<DimExpr> {
        const auto constant = x[0].AsConstant();
        if (to == DataType::kInt64) return x[0];
        if (to == DataType::kInt32 && constant && *constant >= INT32_MIN &&
            *constant <= INT32_MAX) {
          return x[0];
        }
        if (to == DataType::kBool) {
          if (constant) return DimExpr::Constant(*constant != 0 ? 1 : 0);
          if (x[0].IsPositive()) return DimExpr::Constant(1);
        }
        return std::nullopt;
      },
      to);
}

}  // namespace

void AddElementwiseRules(RuleRegistry& registry) {
  registry.Add(kOnnxDomain, {"Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil"},
               SameShape);
  registry.Add(kOnnxDomain, {"Cos", "Cosh", "Erf", "Exp", "Floor", "IsInf", "IsNaN", "Log"},
               SameShape);
  registry.Add(kOnnxDomain, {"Not", "Reciprocal", "Round", "Sign", "Sin", "Sinh", "Sqrt", "Tan"},
               SameShape);
  registry.Add(kOnnxDomain, {"Celu", "Elu", "Gelu", "HardSigmoid", "HardSwish", "LeakyRelu"},
               SameShape);
  registry.Add(kOnnxDomain, {"Mish", "Relu", "Selu", "Shrink", "Sigmoid", "Softplus", "Softsign"},
               SameShape);
  registry.Add(kOnnxDomain, {"Tanh", "ThresholdedRelu", "Clip", "BitwiseNot", "CumSum", "Trilu"},
               SameShape);
  registry.Add(kOnnxDomain, {"Softmax", "LogSoftmax", "Hardmax", "LpNormalization", "LRN"},
               SameShape);
  registry.Add(kOnnxDomain,
               {"MeanVarianceNormalization", "InstanceNormalization", "GroupNormalization"},
               SameShape);
  registry.Add(kOnnxDomain, {"RandomNormalLike", "RandomUniformLike", "Bernoulli"}, SameShape);
  registry.Add(kOnnxDomain, {"Scatter", "ScatterElements", "ScatterND", "ReverseSequence"},
               SameShape);
  registry.Add(kOnnxDomain, {"QuantizeLinear", "DequantizeLinear"}, SameShape);
  // PRelu broadcasts the slope to x (one way): the output has x's shape.
  registry.Add(kOnnxDomain, {"PRelu"}, SameShape);
  registry.Add(kOnnxDomain, {"Identity"}, SameShapeAndValues);
  registry.Add(kOnnxDomain,
               {"Pow", "Mod", "And", "Or", "Xor", "BitShift", "BitwiseAnd", "BitwiseOr",
                "BitwiseXor", "Mean", "Sum"},
               Broadcast);
  registry.Add(kOnnxDomain, {"Add"}, BroadcastArithmetic<Add>);
  registry.Add(kOnnxDomain, {"Sub"}, BroadcastArithmetic<Sub>);
  registry.Add(kOnnxDomain, {"Mul"}, BroadcastArithmetic<Mul>);
  registry.Add(kOnnxDomain, {"Div"}, BroadcastArithmetic<TruncDiv>);
  registry.Add(kOnnxDomain, {"Equal"}, EqualRule);
  registry.Add(kOnnxDomain, {"Less"}, Compare<false, false>);
  registry.Add(kOnnxDomain, {"Greater"}, Compare<true, false>);
  registry.Add(kOnnxDomain, {"GreaterOrEqual"}, Compare<false, true>);
  registry.Add(kOnnxDomain, {"LessOrEqual"}, Compare<true, true>);
  registry.Add(kOnnxDomain, {"Max"}, MinMax<true>);
  registry.Add(kOnnxDomain, {"Min"}, MinMax<false>);
  registry.Add(kOnnxDomain, {"Where"}, Where);
  registry.Add(kOnnxDomain, {"Neg"}, Neg);
  registry.Add(kOnnxDomain, {"Cast"}, Cast);
}

}  // namespace ort
