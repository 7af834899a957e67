#include "lib/optimizer/nchwc_patterns.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {

std::vector<Attribute> IntAttribute(std::string name, int64_t value) {
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::Int(std::move(name), value));
  return attributes;
}

std::optional<SymbolicShape> FloatShape4(const Graph& graph, std::string_view value) {
  const ValueType* type = graph.FindTypeInScope(value);
  if (type == nullptr || !type->IsTensor() || type->elem_type != DataType::kFloat || !type->shape ||
      type->shape->size() != 4 || !(*type->shape)[1].IsKnown()) {
    return std::nullopt;
  }
  return *type->shape;
}

bool SameShape(const Graph& graph, std::string_view a, std::string_view b) {
  const auto a_shape = FloatShape4(graph, a);
  const auto b_shape = FloatShape4(graph, b);
  if (!a_shape || a_shape != b_shape) return false;
  for (const Dimension& dim : *a_shape) {
    if (!dim.IsKnown() && dim.param.empty()) return false;
  }
  return true;
}

bool IsTransposeWithPerm(const Node& node, const std::vector<int64_t>& perm) {
  const Attribute* attribute = node.FindAttribute("perm");
  return IsOnnxOp(&node, "Transpose") && attribute != nullptr && attribute->ints == perm;
}

std::optional<std::vector<float>> ChannelConstant(const Graph& graph, std::string_view value,
                                                  int64_t channels) {
  const Tensor* tensor = graph.GetConstantInitializer(value, true);
  if (tensor == nullptr || tensor->NumElements() == 1) return std::nullopt;
  return PerChannelValues(*tensor, channels, 4);
}

std::optional<std::vector<Attribute>> ActivationAttributes(const Graph& graph, const Node& node) {
  const std::string& op = node.op_type();
  std::vector<float> params;
  if (op == "LeakyRelu") {
    params = {FloatAttribute(node, "alpha", 0.01f)};
  } else if (op == "HardSigmoid") {
    params = {FloatAttribute(node, "alpha", 0.2f), FloatAttribute(node, "beta", 0.5f)};
  } else if (op == "Clip") {
    params = {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()};
    if (graph.OpsetVersion("") < 11) {
      params = {FloatAttribute(node, "min", params[0]), FloatAttribute(node, "max", params[1])};
    } else {
      for (size_t i = 1; i <= 2; ++i) {
        if (!node.HasInput(i)) continue;
        const auto bound = ScalarFloatConstant(graph, node.inputs()[i]);
        if (!bound) return std::nullopt;
        params[i - 1] = *bound;
      }
    }
  } else if (op != "Relu" && op != "Sigmoid" && op != "Tanh") {
    return std::nullopt;
  }
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::String("activation", op));
  if (!params.empty()) attributes.push_back(Attribute::Floats("activation_params", params));
  return attributes;
}

bool IsUnaryPassThrough(const Node& node) {
  static const std::unordered_set<std::string> kOps{
      "Relu", "Sigmoid", "Tanh",     "LeakyRelu", "HardSigmoid", "Clip", "Elu",  "Abs",
      "Neg",  "Erf",     "Softplus", "HardSwish", "Gelu",        "Mish", "Selu", "Celu"};
  static const std::unordered_set<std::string> kMsOps{"Gelu", "QuickGelu"};
  if (node.outputs().size() != 1) return false;
  if (node.domain().empty()) return kOps.count(node.op_type()) > 0;
  return node.domain() == kMsDomain && kMsOps.count(node.op_type()) > 0 &&
         node.inputs().size() == 1;
}

bool IsBinaryPassThrough(const Node& node) {
  const std::string& op = node.op_type();
  return node.domain().empty() && node.inputs().size() == 2 && node.outputs().size() == 1 &&
         (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Max" || op == "Min");
}

std::optional<std::vector<Attribute>> NchwcPoolAttributes(const Node& pool) {
  const bool global = pool.op_type().starts_with("Global");
  const Attribute* kernel_shape = pool.FindAttribute("kernel_shape");
  if (!global && (kernel_shape == nullptr || kernel_shape->ints.size() != 2)) return std::nullopt;
  std::vector<Attribute> attributes;
  for (const auto& [name, attribute] : pool.attributes()) {
    if (name == "storage_order") continue;
    if (name == "dilations" && pool.op_type() == "AveragePool") {
      for (int64_t dilation : attribute.ints) {
        if (dilation != 1) return std::nullopt;
      }
      continue;
    }
    attributes.push_back(CopyPlainAttribute(attribute, name));
  }
  return attributes;
}

std::optional<std::vector<Attribute>> NchwcUpsampleAttributes(const Graph& graph,
                                                              const Node& node) {
  if (node.outputs().size() != 1) return std::nullopt;
  const bool resize = node.op_type() == "Resize";
  const size_t scales_index = resize && graph.OpsetVersion("") >= 11 ? 2 : 1;
  if (node.HasInput(scales_index + 1)) return std::nullopt;
  const Tensor* scales = ConstantInput(graph, node, scales_index);
  if (scales == nullptr || scales->dtype() != DataType::kFloat || scales->NumElements() != 4) {
    return std::nullopt;
  }
  std::vector<int64_t> factors;
  for (float scale : scales->Span<float>()) {
    if (scale < 1.0f || scale != static_cast<float>(static_cast<int64_t>(scale))) {
      return std::nullopt;
    }
    factors.push_back(static_cast<int64_t>(scale));
  }
  if (factors[0] != 1 || factors[1] != 1) return std::nullopt;
  const auto text = [&node](std::string_view name, std::string fallback) {
    const Attribute* attribute = node.FindAttribute(name);
    return attribute != nullptr ? attribute->s : fallback;
  };
  const std::string mode = text("mode", "nearest");
  const std::string coordinates =
      resize ? text("coordinate_transformation_mode", "half_pixel") : "asymmetric";
  const Attribute* antialias = node.FindAttribute("antialias");
  if ((antialias != nullptr && antialias->i != 0) || node.FindAttribute("axes") != nullptr) {
    return std::nullopt;
  }
  if (mode == "nearest") {
    if (coordinates != "asymmetric" ||
        (resize && text("nearest_mode", "round_prefer_floor") != "floor")) {
      return std::nullopt;
    }
  } else if (mode != "linear" || (coordinates != "asymmetric" && coordinates != "half_pixel" &&
                                  coordinates != "align_corners")) {
    return std::nullopt;
  }
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::Ints("scales", factors));
  attributes.push_back(Attribute::String("mode", mode));
  attributes.push_back(Attribute::String("coordinate_transformation_mode", coordinates));
  return attributes;
}

Tensor PackNchwcFilters(const Tensor& weight, int64_t block, bool plain_input) {
  const TensorShape& ws = weight.shape();
  const int64_t filters = ws[0], in = ws[1], kernel = ws[2] * ws[3];
  const int64_t out_blocks = RoundUp(filters, block) / block;
  const int64_t in_channels = plain_input ? in : RoundUp(in, block);
  Tensor packed = Tensor::Allocate(DataType::kFloat,
                                   TensorShape({out_blocks * block, in_channels, ws[2], ws[3]}))
                      .value();
  float* dst = packed.MutableData<float>();
  const float* src = weight.Data<float>();
  const int64_t in_block = plain_input ? 1 : block;
  const int64_t in_blocks = in_channels / in_block;
  // Written in order ([ob][ib][tap][bi][bo]): each (ob, ib) reads B filters' runs of in_block x
  // kernel values, which stay in L1, where writing in source order touched a new cache line of
  // the destination per value (a quarter of resnet50's session start).
  for (int64_t ob = 0; ob < out_blocks; ++ob) {
    for (int64_t ib = 0; ib < in_blocks; ++ib) {
      for (int64_t k = 0; k < kernel; ++k) {
        for (int64_t bi = 0; bi < in_block; ++bi) {
          const int64_t c = ib * in_block + bi;
          for (int64_t bo = 0; bo < block; ++bo) {
            const int64_t m = ob * block + bo;
            *dst++ = m < filters && c < in ? src[(m * in + c) * kernel + k] : 0.0f;
          }
        }
      }
    }
  }
  return packed;
}

Tensor MergeNarrowGroups(const Tensor& weight, int64_t group, int64_t merged) {
  const TensorShape& ws = weight.shape();
  const int64_t filters = ws[0], group_channels = ws[1], kernel = ws[2] * ws[3];
  const int64_t group_filters = filters / group;
  Tensor dense = Tensor::Allocate(DataType::kFloat,
                                  TensorShape({filters, merged * group_channels, ws[2], ws[3]}))
                     .value();
  float* dst = dense.MutableData<float>();
  std::fill(dst, dst + dense.NumElements(), 0.0f);
  const float* src = weight.Data<float>();
  for (int64_t f = 0; f < filters; ++f) {
    // Group f / group_filters is member (f / group_filters) % merged of its merged group.
    const int64_t offset = (f / group_filters % merged) * group_channels;
    const float* source = src + f * group_channels * kernel;
    std::copy(source, source + group_channels * kernel,
              dst + (f * merged * group_channels + offset) * kernel);
  }
  return dense;
}

Tensor PaddedVector(std::span<const float> values, int64_t size) {
  std::vector<float> padded(static_cast<size_t>(size), 0.0f);
  std::copy(values.begin(), values.end(), padded.begin());
  return Tensor::FromVector<float>(TensorShape({size}), std::span<const float>(padded));
}

}  // namespace ort
