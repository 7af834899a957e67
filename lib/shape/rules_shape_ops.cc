// Shape rules of the ops that compute and consume shape tensors: Shape, Size, Gather, Slice,
// Concat, Unsqueeze, Squeeze, Reshape and Flatten.
#include <algorithm>
#include <climits>

#include "lib/shape/shape_rules.h"

namespace ort {
namespace {

void ShapeOf(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  const auto rank = static_cast<int64_t>(input->size());
  const auto clamp = [rank](int64_t axis) {
    return std::clamp<int64_t>(axis < 0 ? axis + rank : axis, 0, rank);
  };
  const int64_t start = clamp(context.IntAttribute("start", 0));
  const int64_t end = clamp(context.IntAttribute("end", rank));
  std::vector<DimExpr> dims;
  for (int64_t axis = start; axis < end; ++axis)
    dims.push_back((*input)[static_cast<size_t>(axis)]);
  context.SetValues(0, std::move(dims), DataType::kInt64);
}

void Size(RuleContext& context) {
  context.SetShape(0, {});
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  if (auto count = Product(*input)) context.SetValues(0, {*count}, DataType::kInt64, true);
}

void Gather(RuleContext& context) {
  const std::vector<DimExpr>* data = context.Shape(0);
  const std::vector<DimExpr>* indices = context.Shape(1);
  if (data == nullptr || indices == nullptr) return;
  const auto axis = ResolveAxis(context.IntAttribute("axis", 0), data->size());
  if (!axis) return;
  std::vector<DimExpr> shape(data->begin(), data->begin() + static_cast<ptrdiff_t>(*axis));
  shape.insert(shape.end(), indices->begin(), indices->end());
  shape.insert(shape.end(), data->begin() + static_cast<ptrdiff_t>(*axis) + 1, data->end());
  context.SetShape(0, shape);
  const std::vector<DimExpr>* values = context.Values(0);
  const auto picks = context.Ints(1);
  if (values == nullptr || !picks || data->size() != 1 || indices->size() > 1) return;
  const auto count = static_cast<int64_t>(values->size());
  std::vector<DimExpr> picked;
  for (int64_t index : *picks) {
    if (index < -count || index >= count) return;
    picked.push_back((*values)[static_cast<size_t>(index < 0 ? index + count : index)]);
  }
  context.SetValues(0, std::move(picked), context.Input(0)->value_type, indices->empty());
}

// The first index a slice reads on an axis of length `dim` (step > 0), or nullopt.
std::optional<DimExpr> SliceStart(const DimExpr& start, const DimExpr& dim) {
  const auto constant = start.AsConstant();
  if (constant && *constant < 0) {
    const auto shifted = Add(dim, start);
    return shifted ? ProvableMax(*shifted, DimExpr()) : std::nullopt;
  }
  // Every dimension fits int64, so INT64_MAX always means "to the end".
  if (constant == INT64_MAX) return dim;
  return Min(start, dim);
}

// Where a slice of an axis of length `dim` starts (`end`: stops) with step `step`, by ONNX's
// clamping; shifting a negative index by `dim` stays within int64.
int64_t ClampIndex(int64_t index, int64_t dim, int64_t step, bool end) {
  const int64_t shifted = index < 0 ? index + dim : index;
  if (step > 0) return std::clamp<int64_t>(shifted, 0, dim);
  return std::clamp<int64_t>(shifted, end ? -1 : 0, dim - 1);
}

// The number of elements Slice keeps of an axis of length `dim`.
std::optional<DimExpr> SliceLength(const DimExpr& dim, const DimExpr& start, const DimExpr& end,
                                   int64_t step) {
  if (step == 0 || step == INT64_MIN) return std::nullopt;
  const auto d = dim.AsConstant(), s = start.AsConstant(), e = end.AsConstant();
  if (d && s && e) {
    if (*d <= 0) return DimExpr();
    const int64_t first = ClampIndex(*s, *d, step, false), last = ClampIndex(*e, *d, step, true);
    const int64_t span = step > 0 ? last - first : first - last;
    return DimExpr::Constant(span <= 0 ? 0 : 1 + (span - 1) / (step > 0 ? step : -step));
  }
  // The whole axis reversed.
  if (step == -1 && (s == -1 || s == INT64_MAX) && e == INT64_MIN) return dim;
  if (step < 1) return std::nullopt;
  const auto first = SliceStart(start, dim), last = SliceStart(end, dim);
  if (!first || !last) return std::nullopt;
  const auto span = Sub(*last, *first);
  if (!span) return std::nullopt;
  if (!span->IsNonNegative()) {
    const auto negated = Sub(*first, *last);
    return negated && negated->IsNonNegative() ? std::optional<DimExpr>(DimExpr()) : std::nullopt;
  }
  const auto rounded = Add(*span, DimExpr::Constant(step - 1));
  return rounded ? FloorDiv(*rounded, step) : std::nullopt;
}

void Slice(RuleContext& context) {
  const std::vector<DimExpr>* data = context.Shape(0);
  if (data == nullptr) return;
  std::vector<DimExpr> starts, ends;
  std::optional<std::vector<int64_t>> axes, steps;
  const auto as_exprs = [](const std::optional<std::vector<int64_t>>& ints) {
    std::vector<DimExpr> exprs;
    if (ints) {
      for (int64_t v : *ints) exprs.push_back(DimExpr::Constant(v));
    }
    return exprs;
  };
  if (context.opset() < 10) {
    starts = as_exprs(context.IntsAttribute("starts"));
    ends = as_exprs(context.IntsAttribute("ends"));
    axes = context.IntsAttribute("axes");
  } else {
    if (context.Values(1) == nullptr || context.Values(2) == nullptr) return;
    starts = *context.Values(1);
    ends = *context.Values(2);
    if (context.Input(3) != nullptr && !(axes = context.Ints(3))) return;
    if (context.Input(4) != nullptr && !(steps = context.Ints(4))) return;
  }
  if (starts.empty() || starts.size() != ends.size()) return;
  if (!axes) {
    axes.emplace();
    for (size_t i = 0; i < starts.size(); ++i) axes->push_back(static_cast<int64_t>(i));
  }
  if (!steps) steps = std::vector<int64_t>(starts.size(), 1);
  if (axes->size() != starts.size() || steps->size() != starts.size()) return;
  std::vector<DimExpr> shape = *data;
  std::vector<bool> seen(shape.size(), false);
  std::vector<std::optional<DimExpr>> lengths(shape.size());
  for (size_t i = 0; i < starts.size(); ++i) {
    const auto axis = ResolveAxis((*axes)[i], shape.size());
    if (!axis || seen[*axis] || (*steps)[i] == 0) return;
    seen[*axis] = true;
    shape[*axis] = context.OrFresh(SliceLength(shape[*axis], starts[i], ends[i], (*steps)[i]));
  }
  context.SetShape(0, shape);
  // The elements a 1-D slice keeps, when every index is a number.
  const std::vector<DimExpr>* values = context.Values(0);
  if (values == nullptr || values->empty() || shape.size() != 1 || !starts[0].AsConstant() ||
      !shape[0].AsConstant()) {
    return;
  }
  const auto count = static_cast<int64_t>(values->size());
  const int64_t step = (*steps)[0], length = *shape[0].AsConstant();
  int64_t index = ClampIndex(*starts[0].AsConstant(), count, step, false);
  std::vector<DimExpr> kept;
  for (int64_t i = 0; i < length; ++i, index += step) {
    if (index < 0 || index >= count) return;
    kept.push_back((*values)[static_cast<size_t>(index)]);
  }
  context.SetValues(0, std::move(kept), context.Input(0)->value_type);
}

void Concat(RuleContext& context) {
  if (context.input_count() == 0) return;
  std::vector<const std::vector<DimExpr>*> shapes;
  for (size_t i = 0; i < context.input_count(); ++i) {
    shapes.push_back(context.Shape(i));
    if (shapes.back() == nullptr || shapes.back()->size() != shapes[0]->size()) return;
  }
  const auto axis = ResolveAxis(context.IntAttribute("axis", 0), shapes[0]->size());
  if (!axis) return;
  std::vector<DimExpr> shape;
  for (size_t d = 0; d < shapes[0]->size(); ++d) {
    std::vector<DimExpr> dims;
    for (const auto* input : shapes) dims.push_back((*input)[d]);
    if (d == *axis) {
      std::optional<DimExpr> sum = DimExpr();
      for (const DimExpr& dim : dims) sum = sum ? Add(*sum, dim) : std::nullopt;
      shape.push_back(context.OrFresh(sum));
    } else {
      shape.push_back(PickEqual(context.symbols(), dims));
    }
  }
  context.SetShape(0, shape);
  if (shape.size() != 1) return;
  std::vector<DimExpr> values;
  const DataType type = context.Input(0)->value_type;
  for (size_t i = 0; i < context.input_count(); ++i) {
    const std::vector<DimExpr>* piece = context.Values(i);
    if (piece == nullptr || context.Input(i)->value_type != type) return;
    values.insert(values.end(), piece->begin(), piece->end());
  }
  context.SetValues(0, std::move(values), type);
}

// Unsqueeze/Squeeze axes: an attribute before opset 13, input 1 since.
std::optional<std::vector<int64_t>> SqueezeAxes(RuleContext& context, bool& given) {
  if (context.opset() < 13) {
    auto axes = context.IntsAttribute("axes");
    given = axes.has_value();
    return axes;
  }
  given = context.Input(1) != nullptr;
  return given ? context.Ints(1) : std::nullopt;
}

// Passes input 0's values on when the output holds as many elements in at most one dimension.
void CarryValues(RuleContext& context, const std::vector<DimExpr>& shape) {
  const std::vector<DimExpr>* values = context.Values(0);
  if (values == nullptr || shape.size() > 1) return;
  if (shape.empty() ? values->size() != 1
                    : shape[0].AsConstant() != static_cast<int64_t>(values->size())) {
    return;
  }
  context.SetValues(0, *values, context.Input(0)->value_type, shape.empty());
}

void Unsqueeze(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  bool given = false;
  const auto axes = SqueezeAxes(context, given);
  if (input == nullptr || !axes || axes->empty()) return;
  const size_t rank = input->size() + axes->size();
  std::vector<bool> inserted(rank, false);
  for (int64_t axis : *axes) {
    const auto normalized = ResolveAxis(axis, rank);
    if (!normalized || inserted[*normalized]) return;
    inserted[*normalized] = true;
  }
  std::vector<DimExpr> shape;
  for (size_t i = 0, next = 0; i < rank; ++i) {
    shape.push_back(inserted[i] ? DimExpr::Constant(1) : (*input)[next++]);
  }
  context.SetShape(0, shape);
  CarryValues(context, shape);
}

void Squeeze(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  bool given = false;
  const auto axes = SqueezeAxes(context, given);
  if (input == nullptr || (given && !axes)) return;
  std::vector<bool> removed(input->size(), false);
  if (axes) {
    for (int64_t axis : *axes) {
      const auto normalized = ResolveAxis(axis, input->size());
      if (!normalized) return;
      const auto dim = (*input)[*normalized].AsConstant();
      if (dim && *dim != 1) return;
      removed[*normalized] = true;
    }
  } else {
    // Without axes every 1 goes: a symbolic dimension might be 1, so the rank is unknown.
    for (size_t i = 0; i < input->size(); ++i) {
      const auto dim = (*input)[i].AsConstant();
      if (!dim) return;
      removed[i] = *dim == 1;
    }
  }
  std::vector<DimExpr> shape;
  for (size_t i = 0; i < input->size(); ++i) {
    if (!removed[i]) shape.push_back((*input)[i]);
  }
  context.SetShape(0, shape);
  CarryValues(context, shape);
}

void Reshape(RuleContext& context) {
  const std::vector<DimExpr>* data = context.Shape(0);
  const std::vector<DimExpr>* target = context.Values(1);
  if (target == nullptr) {
    // The output rank is the target's length even when its elements are unknown.
    const std::vector<DimExpr>* target_shape = context.Shape(1);
    const auto length = target_shape != nullptr && target_shape->size() == 1
                            ? (*target_shape)[0].AsConstant()
                            : std::nullopt;
    if (!length || *length < 0 || static_cast<size_t>(*length) > kMaxTrackedValues) return;
    std::vector<DimExpr> shape;
    for (int64_t i = 0; i < *length; ++i) shape.push_back(context.Fresh());
    context.SetShape(0, std::move(shape));
    return;
  }
  const bool allowzero = context.opset() >= 14 && context.IntAttribute("allowzero", 0) != 0;
  const auto data_size = data != nullptr ? Product(*data) : std::nullopt;
  std::vector<DimExpr> shape;
  std::optional<size_t> inferred;
  for (size_t i = 0; i < target->size(); ++i) {
    const DimExpr& element = (*target)[i];
    const auto constant = element.AsConstant();
    const DimExpr* input_dim = data != nullptr && i < data->size() ? &(*data)[i] : nullptr;
    if (constant == -1) {
      if (inferred) return;
      inferred = i;
      shape.push_back(DimExpr());
    } else if (constant && *constant < -1) {
      return;
    } else if (constant == 0 && !allowzero) {
      shape.push_back(input_dim != nullptr ? *input_dim : context.Fresh());
    } else if (constant || (allowzero && element.IsNonNegative())) {
      shape.push_back(element);
    } else if (input_dim != nullptr && element == *input_dim) {
      shape.push_back(element);  // a copied 0 would be the same dimension
    } else if (element.IsNonNegative() &&
               (input_dim == nullptr || DivExact(*input_dim, element).has_value())) {
      // Where the element is 0, the copied input dimension is a multiple of it, so 0 too; a 0
      // past the input's rank is an error at run time.
      shape.push_back(element);
    } else if (context.symbols().OnlyInputSizes(element) && data_size &&
               DivExact(*data_size, element)) {
      // torch's view(tgt_len, bsz, D) after nn.MultiheadAttention: were bsz 0, the input would
      // be empty and the copy would change only which dimension of an empty tensor is 0. Like
      // symbolic_shape_infer.py we keep bsz, but only a size of the model's inputs: a caller
      // rarely passes an empty batch, while a data-dependent count (detections) is often 0.
      shape.push_back(element);
    } else {
      // At run time the element might be 0 (copy) or -1 (infer).
      shape.push_back(element.IsPositive() ? element : context.Fresh());
    }
  }
  if (inferred) {
    std::vector<DimExpr> others = shape;
    others.erase(others.begin() + static_cast<ptrdiff_t>(*inferred));
    const auto known = Product(others);
    shape[*inferred] = context.OrFresh(data_size && known ? DivExact(*data_size, *known)
                                                          : std::optional<DimExpr>());
  }
  context.SetShape(0, shape);
  CarryValues(context, shape);
}

void Flatten(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  const auto axis = ResolveAxis(context.IntAttribute("axis", 1), input->size(), true);
  if (!axis) return;
  const auto split = input->begin() + static_cast<ptrdiff_t>(*axis);
  context.SetShape(0, {context.OrFresh(Product({input->begin(), split})),
                       context.OrFresh(Product({split, input->end()}))});
}

}  // namespace

void AddShapeOpRules(RuleRegistry& registry) {
  registry.Add(kOnnxDomain, {"Shape"}, ShapeOf);
  registry.Add(kOnnxDomain, {"Size"}, Size);
  registry.Add(kOnnxDomain, {"Gather"}, Gather);
  registry.Add(kOnnxDomain, {"Slice"}, Slice);
  registry.Add(kOnnxDomain, {"Concat"}, Concat);
  registry.Add(kOnnxDomain, {"Unsqueeze"}, Unsqueeze);
  registry.Add(kOnnxDomain, {"Squeeze"}, Squeeze);
  registry.Add(kOnnxDomain, {"Reshape"}, Reshape);
  registry.Add(kOnnxDomain, {"Flatten"}, Flatten);
}

}  // namespace ort
