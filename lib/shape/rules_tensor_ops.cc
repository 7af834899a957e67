// Shape rules of the data-movement and tensor-making ops: Range, Expand, ConstantOfShape,
// Constant, Tile, Transpose, Split, Pad, Resize/Upsample, TopK, GatherElements, DepthToSpace,
// SpaceToDepth, NonZero, Dropout, OneHot, and If (its outputs where both branches agree).
#include <climits>

#include "lib/shape/shape_rules.h"

namespace ort {
namespace {

// The single element of input `i` (a scalar or a 1-element tensor) when known.
std::optional<DimExpr> ScalarValue(const RuleContext& context, size_t i) {
  const std::vector<DimExpr>* values = context.Values(i);
  if (values == nullptr || values->size() != 1) return std::nullopt;
  return (*values)[0];
}

// max(ceil((limit - start) / delta), 0) when provable.
std::optional<DimExpr> RangeLength(const DimExpr& start, const DimExpr& limit, int64_t delta) {
  if (delta == 0 || delta == INT64_MIN) return std::nullopt;
  const auto span = delta > 0 ? Sub(limit, start) : Sub(start, limit);
  const int64_t step = delta > 0 ? delta : -delta;
  if (!span) return std::nullopt;
  if (const auto constant = span->AsConstant()) {
    return DimExpr::Constant(*constant <= 0 ? 0 : 1 + (*constant - 1) / step);
  }
  if (!span->IsNonNegative()) return std::nullopt;
  const auto rounded = Add(*span, DimExpr::Constant(step - 1));
  return rounded ? FloorDiv(*rounded, step) : std::nullopt;
}

void Range(RuleContext& context) {
  const auto start = ScalarValue(context, 0), limit = ScalarValue(context, 1);
  const auto delta = ScalarValue(context, 2);
  std::optional<DimExpr> length;
  int64_t step = 0;
  if (start && limit && delta && delta->AsConstant()) {
    step = *delta->AsConstant();
    length = RangeLength(*start, *limit, step);
  }
  context.SetShape(0, {context.OrFresh(length)});
  if (!length || !length->AsConstant() || !start->AsConstant()) return;
  const int64_t count = *length->AsConstant(), first = *start->AsConstant();
  if (static_cast<size_t>(count) > kMaxTrackedValues) return;
  std::vector<DimExpr> values;
  for (int64_t i = 0; i < count; ++i) {
    int64_t value = 0;
    // Values past int64 are the kernel's error to report; the rule only declines to track them.
    if (__builtin_mul_overflow(i, step, &value) || __builtin_add_overflow(first, value, &value)) {
      return;
    }
    values.push_back(DimExpr::Constant(value));
  }
  context.SetValues(0, std::move(values), context.Input(0)->value_type);
}

// The dims a shape input (input `i`) holds: its elements, or fresh ones of its known length.
std::optional<std::vector<DimExpr>> ShapeInput(RuleContext& context, size_t i) {
  if (const std::vector<DimExpr>* values = context.Values(i)) return *values;
  const std::vector<DimExpr>* shape = context.Shape(i);
  const auto length =
      shape != nullptr && shape->size() == 1 ? (*shape)[0].AsConstant() : std::nullopt;
  if (!length || *length < 0 || static_cast<size_t>(*length) > kMaxTrackedValues)
    return std::nullopt;
  std::vector<DimExpr> dims;
  for (int64_t d = 0; d < *length; ++d) dims.push_back(context.Fresh());
  return dims;
}

void Expand(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  auto target = ShapeInput(context, 1);
  if (input == nullptr || !target) return;
  for (DimExpr& dim : *target) {
    if (!dim.IsNonNegative()) dim = context.Fresh();
  }
  auto shape = BroadcastShapes(context, {*input, *target});
  if (!shape) return;
  context.SetShape(0, *shape);
  const std::vector<DimExpr>* values = context.Values(0);
  const auto length = shape->size() == 1 ? (*shape)[0].AsConstant() : std::nullopt;
  if (values == nullptr || !length ||
      (values->size() != 1 && values->size() != static_cast<size_t>(*length)) ||
      static_cast<size_t>(*length) > kMaxTrackedValues) {
    return;
  }
  std::vector<DimExpr> expanded;
  for (int64_t i = 0; i < *length; ++i) expanded.push_back((*values)[values->size() == 1 ? 0 : i]);
  context.SetValues(0, std::move(expanded), context.Input(0)->value_type);
}

void ConstantOfShape(RuleContext& context) {
  auto target = ShapeInput(context, 0);
  if (!target) return;
  for (DimExpr& dim : *target) {
    if (!dim.IsNonNegative()) dim = context.Fresh();
  }
  context.SetShape(0, *target);
  const Attribute* value = context.node().FindAttribute("value");
  const auto fill = value != nullptr ? TensorValues(value->t) : std::nullopt;
  if (!fill || fill->size() != 1 || target->size() != 1 || !(*target)[0].AsConstant()) return;
  const auto length = static_cast<size_t>(*(*target)[0].AsConstant());
  if (length > kMaxTrackedValues) return;
  context.SetValues(0, std::vector<DimExpr>(length, (*fill)[0]), value->t.dtype());
}

void Constant(RuleContext& context) {
  const auto& attributes = context.node().attributes();
  if (attributes.size() != 1) return;
  const Attribute& attribute = attributes.begin()->second;
  const std::string& name = attribute.name;
  if (name == "value" && attribute.type == AttributeType::kTensor) {
    std::vector<DimExpr> shape;
    for (int64_t dim : attribute.t.shape().dims()) shape.push_back(DimExpr::Constant(dim));
    context.SetShape(0, shape);
    auto values = TensorValues(attribute.t);
    if (values) context.SetValues(0, std::move(*values), attribute.t.dtype(), shape.empty());
  } else if (name == "value_int" && attribute.type == AttributeType::kInt) {
    context.SetValues(0, {DimExpr::Constant(attribute.i)}, DataType::kInt64, true);
  } else if (name == "value_ints" && attribute.type == AttributeType::kInts) {
    std::vector<DimExpr> values;
    for (int64_t v : attribute.ints) values.push_back(DimExpr::Constant(v));
    context.SetValues(0, std::move(values), DataType::kInt64);
  } else if (name == "value_float" || name == "value_string") {
    context.SetShape(0, {});
  } else if (name == "value_floats" || name == "value_strings") {
    const size_t count =
        name == "value_floats" ? attribute.floats.size() : attribute.strings.size();
    context.SetShape(0, {DimExpr::Constant(static_cast<int64_t>(count))});
  }
}

void Tile(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  const std::vector<DimExpr>* repeats = context.Values(1);
  if (input == nullptr || repeats == nullptr || repeats->size() != input->size()) return;
  std::vector<DimExpr> shape;
  for (size_t i = 0; i < input->size(); ++i) {
    shape.push_back(context.OrFresh(Mul((*input)[i], (*repeats)[i])));
  }
  context.SetShape(0, shape);
}

void Transpose(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  auto perm = context.IntsAttribute("perm");
  if (!perm) {
    perm.emplace();
    for (size_t i = input->size(); i > 0; --i) perm->push_back(static_cast<int64_t>(i - 1));
  }
  if (perm->size() != input->size()) return;
  std::vector<bool> used(input->size(), false);
  std::vector<DimExpr> shape;
  for (int64_t axis : *perm) {
    const auto normalized = ResolveAxis(axis, input->size());
    if (!normalized || used[*normalized]) return;
    used[*normalized] = true;
    shape.push_back((*input)[*normalized]);
  }
  context.SetShape(0, shape);
}

void Split(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  const auto axis = ResolveAxis(context.IntAttribute("axis", 0), input->size());
  const size_t outputs = context.node().outputs().size();
  if (!axis || outputs == 0) return;
  const DimExpr& dim = (*input)[*axis];
  std::vector<DimExpr> sizes;
  const auto split = context.opset() < 13 ? context.IntsAttribute("split") : context.Ints(1);
  if (context.opset() >= 13 && context.Input(1) != nullptr && !split) return;
  if (split) {
    if (split->size() != outputs) return;
    for (int64_t size : *split) sizes.push_back(DimExpr::Constant(size));
  } else {
    // Equal parts; from opset 18 the last may be smaller (num_outputs need not divide).
    const auto count = static_cast<int64_t>(outputs);
    const bool ceil = context.opset() >= 18;
    const auto rounded = ceil ? Add(dim, DimExpr::Constant(count - 1)) : std::optional(dim);
    const auto part = rounded ? FloorDiv(*rounded, count) : std::nullopt;
    const auto before_last = part ? Mul(*part, DimExpr::Constant(count - 1)) : std::nullopt;
    const auto last = before_last ? Sub(dim, *before_last) : std::nullopt;
    for (size_t i = 0; i < outputs; ++i) {
      sizes.push_back(context.OrFresh(i + 1 == outputs && ceil ? last : part));
    }
  }
  for (size_t i = 0; i < outputs; ++i) {
    std::vector<DimExpr> shape = *input;
    shape[*axis] = sizes[i];
    context.SetShape(i, std::move(shape));
  }
}

void Pad(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  const auto pads = context.opset() < 11 ? context.IntsAttribute("pads") : context.Ints(1);
  std::optional<std::vector<int64_t>> axes;
  if (context.opset() >= 18 && context.Input(3) != nullptr && !(axes = context.Ints(3))) return;
  if (!axes) {
    axes.emplace();
    for (size_t i = 0; i < input->size(); ++i) axes->push_back(static_cast<int64_t>(i));
  }
  if (!pads || pads->size() != 2 * axes->size()) return;
  std::vector<DimExpr> shape = *input;
  for (size_t i = 0; i < axes->size(); ++i) {
    const auto axis = ResolveAxis((*axes)[i], shape.size());
    if (!axis) return;
    const auto padded = Add(shape[*axis], DimExpr::Constant((*pads)[i]));
    const auto total =
        padded ? Add(*padded, DimExpr::Constant((*pads)[i + axes->size()])) : std::nullopt;
    shape[*axis] = context.OrFresh(total);
  }
  context.SetShape(0, shape);
}

// Resize (and Upsample) by sizes, or by integral float scales (x2 exactly doubles a dimension;
// other scales round in the kernel, which this does not repeat).
void ResizeBy(RuleContext& context, size_t scales_input, std::optional<size_t> sizes_input) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr || context.node().FindAttribute("axes") != nullptr) return;
  // Other policies than stretching fit the sizes while keeping the aspect ratio.
  if (context.StringAttribute("keep_aspect_ratio_policy", "stretch") != "stretch") return;
  if (sizes_input && context.Input(*sizes_input) != nullptr) {
    const std::vector<DimExpr>* sizes = context.Values(*sizes_input);
    if (sizes != nullptr && sizes->size() == input->size()) context.SetShape(0, *sizes);
    // An empty sizes tensor leaves the scales to decide.
    if (sizes == nullptr || !sizes->empty()) return;
  }
  std::vector<float> scales;
  if (const Attribute* attribute = context.node().FindAttribute("scales")) {
    scales = attribute->floats;
  } else if (const Tensor* tensor = context.ConstantInput(scales_input)) {
    if (tensor->dtype() != DataType::kFloat) return;
    scales.assign(tensor->Span<float>().begin(), tensor->Span<float>().end());
  }
  if (scales.size() != input->size()) return;
  std::vector<DimExpr> shape;
  for (size_t i = 0; i < scales.size(); ++i) {
    const float scale = scales[i];
    const bool integral =
        scale >= 1 && scale <= 1024 && scale == static_cast<float>(static_cast<int64_t>(scale));
    shape.push_back(
        context.OrFresh(integral ? Mul((*input)[i], DimExpr::Constant(static_cast<int64_t>(scale)))
                                 : std::nullopt));
  }
  context.SetShape(0, shape);
}

void Resize(RuleContext& context) {
  if (context.opset() < 11) {
    ResizeBy(context, 1, std::nullopt);
  } else {
    ResizeBy(context, 2, 3);
  }
}

void Upsample(RuleContext& context) { ResizeBy(context, 1, std::nullopt); }

void TopK(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  const auto axis = ResolveAxis(context.IntAttribute("axis", -1), input->size());
  if (!axis) return;
  std::optional<DimExpr> k;
  if (context.opset() < 10) {
    const int64_t attribute = context.IntAttribute("k", -1);
    if (attribute >= 0) k = DimExpr::Constant(attribute);
  } else {
    k = ScalarValue(context, 1);
  }
  std::vector<DimExpr> shape = *input;
  shape[*axis] = context.OrFresh(k);
  context.SetShape(0, shape);
  context.SetShape(1, shape);
}

void DepthToSpace(RuleContext& context, bool to_space) {
  const std::vector<DimExpr>* input = context.Shape(0);
  const int64_t block = context.IntAttribute("blocksize", 0);
  if (input == nullptr || input->size() != 4 || block < 1 || block > (int64_t{1} << 20)) return;
  const DimExpr factor = DimExpr::Constant(block);
  std::vector<DimExpr> shape{(*input)[0]};
  shape.push_back(context.OrFresh(to_space ? FloorDiv((*input)[1], block * block)
                                           : Mul((*input)[1], DimExpr::Constant(block * block))));
  for (size_t i = 2; i < 4; ++i) {
    shape.push_back(
        context.OrFresh(to_space ? Mul((*input)[i], factor) : FloorDiv((*input)[i], block)));
  }
  context.SetShape(0, shape);
}

void NonZero(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  context.SetShape(0, {DimExpr::Constant(static_cast<int64_t>(input->size())), context.Fresh()});
}

void Dropout(RuleContext& context) {
  context.CopyInput(0, 0);
  context.CopyInput(0, 1);
}

void OneHot(RuleContext& context) {
  const std::vector<DimExpr>* indices = context.Shape(0);
  if (indices == nullptr) return;
  // The axis counts in the output, one dimension longer.
  const auto axis = ResolveAxis(context.IntAttribute("axis", -1), indices->size() + 1);
  if (!axis) return;
  std::vector<DimExpr> shape = *indices;
  shape.insert(shape.begin() + static_cast<ptrdiff_t>(*axis),
               context.OrFresh(ScalarValue(context, 1)));
  context.SetShape(0, shape);
}

void GatherElements(RuleContext& context) { context.CopyInput(1, 0); }

void If(RuleContext& context) {
  const Attribute* then_branch = context.node().FindAttribute("then_branch");
  const Attribute* else_branch = context.node().FindAttribute("else_branch");
  if (then_branch == nullptr || else_branch == nullptr || !then_branch->g || !else_branch->g) {
    return;
  }
  for (size_t i = 0; i < context.node().outputs().size(); ++i) {
    const TensorFacts& a = context.SubgraphOutput(*then_branch->g, i);
    const TensorFacts& b = context.SubgraphOutput(*else_branch->g, i);
    if (!a.shape || !b.shape || a.shape->size() != b.shape->size()) continue;
    std::vector<DimExpr> shape;
    for (size_t d = 0; d < a.shape->size(); ++d) {
      shape.push_back((*a.shape)[d] == (*b.shape)[d] ? (*a.shape)[d] : context.Fresh());
    }
    context.SetShape(i, shape);
    if (a.values && a.values == b.values && a.value_type == b.value_type) {
      context.outputs()[i].values = a.values;
      context.outputs()[i].value_type = a.value_type;
    }
  }
}

}  // namespace

void AddTensorOpRules(RuleRegistry& registry) {
  registry.Add(kOnnxDomain, {"Range"}, Range);
  registry.Add(kOnnxDomain, {"Expand"}, Expand);
  registry.Add(kOnnxDomain, {"ConstantOfShape"}, ConstantOfShape);
  registry.Add(kOnnxDomain, {"Constant"}, Constant);
  registry.Add(kOnnxDomain, {"Tile"}, Tile);
  registry.Add(kOnnxDomain, {"Transpose"}, Transpose);
  registry.Add(kOnnxDomain, {"Split"}, Split);
  registry.Add(kOnnxDomain, {"Pad"}, Pad);
  registry.Add(kOnnxDomain, {"Resize"}, Resize);
  registry.Add(kOnnxDomain, {"Upsample"}, Upsample);
  registry.Add(kOnnxDomain, {"TopK"}, TopK);
  registry.Add(kOnnxDomain, {"DepthToSpace"}, [](RuleContext& c) { DepthToSpace(c, true); });
  registry.Add(kOnnxDomain, {"SpaceToDepth"}, [](RuleContext& c) { DepthToSpace(c, false); });
  registry.Add(kOnnxDomain, {"NonZero"}, NonZero);
  registry.Add(kOnnxDomain, {"Dropout"}, Dropout);
  registry.Add(kOnnxDomain, {"OneHot"}, OneHot);
  registry.Add(kOnnxDomain, {"GatherElements"}, GatherElements);
  registry.Add(kOnnxDomain, {"If"}, If);
}

}  // namespace ort
