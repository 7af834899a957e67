// Shape rules of the neural-network ops: MatMul, Einsum, Gemm, Conv, ConvTranspose, pooling,
// reductions, ArgMax/ArgMin, and the normalizations with statistics outputs.
#include "lib/shape/shape_rules.h"

#include <cctype>
#include <map>
#include <string>

namespace ort {
namespace {

void MatMul(RuleContext& context) { InferMatMul(context, false, false); }

// Einsum: each label's size from the inputs that use it (a valid model makes them equal), the
// dims under "..." broadcast across inputs; the output lists its labels, or (implicit form) the
// broadcast dims followed by the labels used once, in alphabetical order.
void Einsum(RuleContext& context) {
  std::string equation;
  for (char c : context.StringAttribute("equation", "")) {
    if (c != ' ') equation.push_back(c);
  }
  const size_t arrow = equation.find("->");
  const std::string left = equation.substr(0, arrow);
  std::vector<std::string> terms(1);
  for (char c : left) {
    if (c == ',') {
      terms.emplace_back();
    } else {
      terms.back().push_back(c);
    }
  }
  if (terms.size() != context.input_count()) return;
  constexpr std::string_view kEllipsis = "...";
  std::map<char, std::vector<DimExpr>> labels;
  std::map<char, int> uses;
  std::vector<std::vector<DimExpr>> broadcast;
  for (size_t i = 0; i < terms.size(); ++i) {
    const std::vector<DimExpr>* shape = context.Shape(i);
    if (shape == nullptr) return;
    std::string term = terms[i];
    const size_t ellipsis = term.find(kEllipsis);
    if (ellipsis != std::string::npos) term.erase(ellipsis, kEllipsis.size());
    if (term.size() > shape->size() ||
        (ellipsis == std::string::npos && term.size() != shape->size())) {
      return;
    }
    const size_t broadcast_rank = shape->size() - term.size();
    const size_t start = ellipsis == std::string::npos ? shape->size() : ellipsis;
    broadcast.emplace_back(shape->begin() + static_cast<ptrdiff_t>(start),
                           shape->begin() + static_cast<ptrdiff_t>(start + broadcast_rank));
    for (size_t j = 0; j < term.size(); ++j) {
      if (!std::isalpha(static_cast<unsigned char>(term[j]))) return;
      const size_t axis = j < start ? j : j + broadcast_rank;
      labels[term[j]].push_back((*shape)[axis]);
      ++uses[term[j]];
    }
  }
  const auto ellipsis_dims = BroadcastShapes(context, broadcast);
  if (!ellipsis_dims) return;
  std::string output;
  if (arrow != std::string::npos) {
    output = equation.substr(arrow + 2);
  } else {
    output = std::string(kEllipsis);
    for (const auto& [label, count] : uses) {
      if (count == 1) output.push_back(label);
    }
  }
  std::vector<DimExpr> shape;
  for (size_t j = 0; j < output.size(); ++j) {
    if (output.compare(j, kEllipsis.size(), kEllipsis) == 0) {
      shape.insert(shape.end(), ellipsis_dims->begin(), ellipsis_dims->end());
      j += kEllipsis.size() - 1;
      continue;
    }
    const auto found = labels.find(output[j]);
    if (found == labels.end()) return;
    shape.push_back(PickEqual(context.symbols(), found->second));
  }
  context.SetShape(0, std::move(shape));
}

// The spatial output size of a window of `kernel` (dilated by `dilation`) over `input`.
std::optional<DimExpr> WindowOutput(const DimExpr& input, const DimExpr& kernel, int64_t stride,
                                    int64_t dilation, int64_t pad_total,
                                    const std::string& auto_pad) {
  if (stride < 1 || dilation < 1) return std::nullopt;
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    const auto rounded = Add(input, DimExpr::Constant(stride - 1));
    return rounded ? FloorDiv(*rounded, stride) : std::nullopt;
  }
  if (auto_pad == "VALID") {
    pad_total = 0;
  } else if (auto_pad != "NOTSET") {
    return std::nullopt;
  }
  // floor((input + pads - dilation * (kernel - 1) - 1) / stride) + 1
  const auto less_one = Sub(kernel, DimExpr::Constant(1));
  const auto extent = less_one ? Mul(*less_one, DimExpr::Constant(dilation)) : std::nullopt;
  const auto padded = Add(input, DimExpr::Constant(pad_total - 1));
  const auto span = padded && extent ? Sub(*padded, *extent) : std::nullopt;
  const auto steps = span ? FloorDiv(*span, stride) : std::nullopt;
  return steps ? Add(*steps, DimExpr::Constant(1)) : std::nullopt;
}

// Conv and pooling: [N, C, spatial...] -> [N, channels, windows...]. `kernel` gives the window
// sizes; nullopt leaves the spatial sizes fresh.
void Window(RuleContext& context, const DimExpr& channels,
            const std::optional<std::vector<DimExpr>>& kernel) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr || input->size() < 3) return;
  const size_t spatial = input->size() - 2;
  const auto strides = context.IntsAttribute("strides").value_or(std::vector<int64_t>(spatial, 1));
  const auto dilations =
      context.IntsAttribute("dilations").value_or(std::vector<int64_t>(spatial, 1));
  const auto pads = context.IntsAttribute("pads").value_or(std::vector<int64_t>(2 * spatial, 0));
  const std::string auto_pad = context.StringAttribute("auto_pad", "NOTSET");
  // Pooling with ceil_mode rounds up with a correction this does not repeat.
  const bool ceil_mode = context.IntAttribute("ceil_mode", 0) != 0;
  std::vector<DimExpr> shape{(*input)[0], channels};
  for (size_t i = 0; i < spatial; ++i) {
    std::optional<DimExpr> size;
    if (kernel && kernel->size() == spatial && strides.size() == spatial &&
        dilations.size() == spatial && pads.size() == 2 * spatial && !ceil_mode) {
      size = WindowOutput((*input)[i + 2], (*kernel)[i], strides[i], dilations[i],
                          pads[i] + pads[i + spatial], auto_pad);
    }
    shape.push_back(context.OrFresh(size));
  }
  context.SetShape(0, shape);
}

std::optional<std::vector<DimExpr>> KernelAttribute(RuleContext& context) {
  const auto kernel = context.IntsAttribute("kernel_shape");
  if (!kernel) return std::nullopt;
  std::vector<DimExpr> dims;
  for (int64_t k : *kernel) dims.push_back(DimExpr::Constant(k));
  return dims;
}

void Pool(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr || input->size() < 3) return;
  Window(context, (*input)[1], KernelAttribute(context));
  if (context.outputs()[0].shape) context.SetShape(1, *context.outputs()[0].shape);
}

void GlobalPool(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr || input->size() < 2) return;
  std::vector<DimExpr> shape(input->size(), DimExpr::Constant(1));
  shape[0] = (*input)[0];
  shape[1] = (*input)[1];
  context.SetShape(0, shape);
}

void ConvTranspose(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  const std::vector<DimExpr>* weight = context.Shape(1);
  if (input == nullptr || weight == nullptr || input->size() < 3 ||
      weight->size() != input->size()) {
    return;
  }
  const size_t spatial = input->size() - 2;
  const int64_t group = context.IntAttribute("group", 1);
  std::vector<DimExpr> shape{(*input)[0],
                             context.OrFresh(Mul((*weight)[1], DimExpr::Constant(group)))};
  const auto strides = context.IntsAttribute("strides").value_or(std::vector<int64_t>(spatial, 1));
  const auto dilations =
      context.IntsAttribute("dilations").value_or(std::vector<int64_t>(spatial, 1));
  const auto pads = context.IntsAttribute("pads").value_or(std::vector<int64_t>(2 * spatial, 0));
  const auto extra =
      context.IntsAttribute("output_padding").value_or(std::vector<int64_t>(spatial, 0));
  const bool plain = context.StringAttribute("auto_pad", "NOTSET") == "NOTSET" &&
                     context.node().FindAttribute("output_shape") == nullptr &&
                     strides.size() == spatial && dilations.size() == spatial &&
                     pads.size() == 2 * spatial && extra.size() == spatial;
  for (size_t i = 0; i < spatial; ++i) {
    std::optional<DimExpr> size;
    if (plain) {
      // stride * (input - 1) + output_padding + dilation * (kernel - 1) + 1 - pads
      const auto before = Sub((*input)[i + 2], DimExpr::Constant(1));
      const auto strided = before ? Mul(*before, DimExpr::Constant(strides[i])) : std::nullopt;
      const auto kernel = Sub((*weight)[i + 2], DimExpr::Constant(1));
      const auto dilated = kernel ? Mul(*kernel, DimExpr::Constant(dilations[i])) : std::nullopt;
      const auto sum = strided && dilated ? Add(*strided, *dilated) : std::nullopt;
      size = sum ? Add(*sum, DimExpr::Constant(extra[i] + 1 - pads[i] - pads[i + spatial]))
                 : std::nullopt;
    }
    shape.push_back(context.OrFresh(size));
  }
  context.SetShape(0, shape);
}

// Reduce*: axes as an attribute, or as input 1 from opset 18 (ReduceSum from 13).
void Reduce(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  const bool axes_input =
      context.opset() >= 18 || (context.opset() >= 13 && context.node().op_type() == "ReduceSum");
  std::optional<std::vector<int64_t>> axes;
  if (axes_input) {
    if (context.Input(1) != nullptr && !(axes = context.Ints(1))) return;
  } else {
    axes = context.IntsAttribute("axes");
  }
  const bool keepdims = context.IntAttribute("keepdims", 1) != 0;
  if (!axes || axes->empty()) {
    if (context.IntAttribute("noop_with_empty_axes", 0) != 0) {
      context.CopyInput(0, 0);
      return;
    }
    axes.emplace();
    for (size_t i = 0; i < input->size(); ++i) axes->push_back(static_cast<int64_t>(i));
  }
  std::vector<bool> reduced(input->size(), false);
  for (int64_t axis : *axes) {
    const auto normalized = ResolveAxis(axis, input->size());
    if (!normalized) return;
    reduced[*normalized] = true;
  }
  std::vector<DimExpr> shape;
  for (size_t i = 0; i < input->size(); ++i) {
    if (!reduced[i]) {
      shape.push_back((*input)[i]);
    } else if (keepdims) {
      shape.push_back(DimExpr::Constant(1));
    }
  }
  context.SetShape(0, shape);
}

void ArgReduce(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  const auto axis = ResolveAxis(context.IntAttribute("axis", 0), input->size());
  if (!axis) return;
  std::vector<DimExpr> shape = *input;
  if (context.IntAttribute("keepdims", 1) != 0) {
    shape[*axis] = DimExpr::Constant(1);
  } else {
    shape.erase(shape.begin() + static_cast<ptrdiff_t>(*axis));
  }
  context.SetShape(0, shape);
}

void LayerNormalization(RuleContext& context) {
  context.CopyInput(0, 0);
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  const auto axis = ResolveAxis(context.IntAttribute("axis", -1), input->size());
  if (!axis) return;
  SetNormStatistics(context, *input, *axis, {1, 2});
}

void BatchNormalization(RuleContext& context) { context.CopyInput(0, 0); }

}  // namespace

void InferMatMul(RuleContext& context, bool transpose_a, bool transpose_b) {
  const std::vector<DimExpr>* a = context.Shape(0);
  const std::vector<DimExpr>* b = context.Shape(1);
  if (a == nullptr || b == nullptr || a->empty() || b->empty()) return;
  if ((transpose_a && a->size() < 2) || (transpose_b && b->size() < 2)) return;
  std::vector<DimExpr> left =
      a->size() == 1 ? std::vector<DimExpr>{DimExpr::Constant(1), (*a)[0]} : *a;
  std::vector<DimExpr> right =
      b->size() == 1 ? std::vector<DimExpr>{(*b)[0], DimExpr::Constant(1)} : *b;
  if (transpose_a) std::swap(left[left.size() - 2], left[left.size() - 1]);
  if (transpose_b) std::swap(right[right.size() - 2], right[right.size() - 1]);
  auto shape = BroadcastShapes(context, {std::vector<DimExpr>(left.begin(), left.end() - 2),
                                         std::vector<DimExpr>(right.begin(), right.end() - 2)});
  if (!shape) return;
  if (a->size() != 1) shape->push_back(left[left.size() - 2]);
  if (b->size() != 1) shape->push_back(right.back());
  context.SetShape(0, *shape);
}

void InferGemm(RuleContext& context) {
  const std::vector<DimExpr>* a = context.Shape(0);
  const std::vector<DimExpr>* b = context.Shape(1);
  if (a == nullptr || b == nullptr || a->size() != 2 || b->size() != 2) return;
  const bool transpose_a = context.IntAttribute("transA", 0) != 0;
  const bool transpose_b = context.IntAttribute("transB", 0) != 0;
  context.SetShape(0, {(*a)[transpose_a ? 1 : 0], (*b)[transpose_b ? 0 : 1]});
}

void InferConv(RuleContext& context) {
  const std::vector<DimExpr>* weight = context.Shape(1);
  if (weight == nullptr || weight->size() < 3) return;
  auto kernel = KernelAttribute(context);
  if (!kernel) kernel.emplace(weight->begin() + 2, weight->end());
  Window(context, (*weight)[0], kernel);
}

void SetNormStatistics(RuleContext& context, const std::vector<DimExpr>& input, size_t axis,
                       std::initializer_list<size_t> outputs) {
  std::vector<DimExpr> shape(input.begin(), input.begin() + static_cast<ptrdiff_t>(axis));
  shape.resize(input.size(), DimExpr::Constant(1));
  for (size_t output : outputs) context.SetShape(output, shape);
}

void AddNnRules(RuleRegistry& registry) {
  registry.Add(kOnnxDomain, {"MatMul", "MatMulInteger"}, MatMul);
  registry.Add(kOnnxDomain, {"Einsum"}, Einsum);
  registry.Add(kOnnxDomain, {"Gemm"}, InferGemm);
  registry.Add(kOnnxDomain, {"Conv", "ConvInteger"}, InferConv);
  registry.Add(kOnnxDomain, {"ConvTranspose"}, ConvTranspose);
  registry.Add(kOnnxDomain, {"MaxPool", "AveragePool", "LpPool"}, Pool);
  registry.Add(kOnnxDomain, {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"}, GlobalPool);
  registry.Add(kOnnxDomain,
               {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"},
               Reduce);
  registry.Add(kOnnxDomain, {"ArgMax", "ArgMin"}, ArgReduce);
  registry.Add(kOnnxDomain, {"LayerNormalization"}, LayerNormalization);
  registry.Add(kOnnxDomain, {"BatchNormalization"}, BatchNormalization);
}

}  // namespace ort
