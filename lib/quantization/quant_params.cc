#include "lib/quantization/quant_params.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

namespace ort {
namespace {

struct QuantBounds {
  int32_t min;
  int32_t max;
};

QuantBounds Bounds(DataType type, bool symmetric) {
  if (type == DataType::kUint8) return {0, 255};
  // ONNX Runtime leaves -128 unused in symmetric int8 so that the range is the same both ways.
  return symmetric ? QuantBounds{-127, 127} : QuantBounds{-128, 127};
}

// Writes `value` as an element of `type` (kUint8 or kInt8) at `index` of `tensor`.
void Store(Tensor& tensor, int64_t index, int32_t value) {
  if (tensor.dtype() == DataType::kUint8) {
    tensor.MutableData<uint8_t>()[index] = static_cast<uint8_t>(value);
  } else {
    tensor.MutableData<int8_t>()[index] = static_cast<int8_t>(value);
  }
}

Status CheckFloat(const Tensor& tensor, std::string_view what) {
  if (tensor.dtype() != DataType::kFloat) {
    return ORT_ERROR(kInvalidArgument, "{} must be float to be quantized, got {}", what,
                     tensor.Describe());
  }
  return Status::OK();
}

}  // namespace

QuantParams ComputeQuantParams(FloatRange range, DataType type, bool symmetric) {
  float low = std::min(range.min, 0.0f);
  float high = std::max(range.max, 0.0f);
  if (symmetric) {
    type = DataType::kInt8;
    const float absmax = std::max(std::fabs(low), std::fabs(high));
    low = -absmax;
    high = absmax;
  }
  const QuantBounds bounds = Bounds(type, symmetric);
  QuantParams params;
  params.type = type;
  params.scale = (high - low) / static_cast<float>(bounds.max - bounds.min);
  if (!(params.scale >= FLT_MIN) || !std::isfinite(params.scale)) {
    params.scale = 1;
    params.zero_point = symmetric ? 0 : std::clamp(0, bounds.min, bounds.max);
    return params;
  }
  if (!symmetric) {
    const float zero = std::nearbyint(static_cast<float>(bounds.min) - low / params.scale);
    params.zero_point = static_cast<int32_t>(
        std::clamp(zero, static_cast<float>(bounds.min), static_cast<float>(bounds.max)));
  }
  return params;
}

int32_t QuantizeValue(float value, const QuantParams& params) {
  const QuantBounds bounds = Bounds(params.type, false);
  const double scaled = std::nearbyint(static_cast<double>(value) / params.scale);
  const double shifted = scaled + params.zero_point;
  return static_cast<int32_t>(
      std::clamp(shifted, static_cast<double>(bounds.min), static_cast<double>(bounds.max)));
}

Result<QuantizedInitializer> QuantizeWeight(const Tensor& weight, DataType type,
                                            std::optional<int64_t> axis) {
  ORT_RETURN_IF_ERROR(CheckFloat(weight, "a weight"));
  const auto& dims = weight.shape().dims();
  int64_t channels = 1;
  int64_t inner = weight.NumElements();
  if (axis) {
    ORT_RETURN_IF_NOT(*axis >= 0 && *axis < static_cast<int64_t>(dims.size()),
                      "weight {} has no axis {}", weight.Describe(), *axis);
    channels = dims[*axis];
    inner = 1;
    for (size_t d = static_cast<size_t>(*axis) + 1; d < dims.size(); ++d) inner *= dims[d];
  }
  const bool symmetric = type == DataType::kInt8;
  const float* values = weight.Data<float>();
  const int64_t count = weight.NumElements();
  auto channel_of = [&](int64_t i) { return channels == 1 ? 0 : (i / inner) % channels; };

  std::vector<FloatRange> ranges(
      static_cast<size_t>(channels),
      FloatRange{std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest()});
  for (int64_t i = 0; i < count; ++i) {
    FloatRange& range = ranges[static_cast<size_t>(channel_of(i))];
    range.min = std::min(range.min, values[i]);
    range.max = std::max(range.max, values[i]);
  }
  std::vector<QuantParams> params;
  for (const FloatRange& range : ranges) {
    params.push_back(range.min > range.max ? QuantParams{1, 0, type}
                                           : ComputeQuantParams(range, type, symmetric));
  }

  QuantizedInitializer result;
  ORT_ASSIGN_OR_RETURN(result.data, Tensor::Allocate(type, weight.shape()));
  for (int64_t i = 0; i < count; ++i) {
    Store(result.data, i, QuantizeValue(values[i], params[static_cast<size_t>(channel_of(i))]));
  }
  const TensorShape param_shape =
      axis ? TensorShape(std::vector<int64_t>{channels}) : TensorShape{};
  ORT_ASSIGN_OR_RETURN(result.scale, Tensor::Allocate(DataType::kFloat, param_shape));
  ORT_ASSIGN_OR_RETURN(result.zero_point, Tensor::Allocate(type, param_shape));
  for (size_t c = 0; c < params.size(); ++c) {
    result.scale.MutableData<float>()[c] = params[c].scale;
    Store(result.zero_point, static_cast<int64_t>(c), params[c].zero_point);
    result.scales.push_back(params[c].scale);
  }
  result.axis = axis;
  return result;
}

Result<QuantizedInitializer> QuantizeConstant(const Tensor& value, DataType type, bool symmetric) {
  ORT_RETURN_IF_ERROR(CheckFloat(value, "a constant"));
  FloatRange range;
  for (const float x : value.Span<float>()) {
    range.min = std::min(range.min, x);
    range.max = std::max(range.max, x);
  }
  const QuantParams params = ComputeQuantParams(range, type, symmetric);
  QuantizedInitializer result;
  ORT_ASSIGN_OR_RETURN(result.data, Tensor::Allocate(params.type, value.shape()));
  const float* values = value.Data<float>();
  for (int64_t i = 0; i < value.NumElements(); ++i) {
    Store(result.data, i, QuantizeValue(values[i], params));
  }
  result.scale = Tensor::Scalar<float>(params.scale);
  ORT_ASSIGN_OR_RETURN(result.zero_point, Tensor::Allocate(params.type, TensorShape{}));
  Store(result.zero_point, 0, params.zero_point);
  result.scales = {params.scale};
  return result;
}

Result<QuantizedInitializer> QuantizeBias(const Tensor& bias, float input_scale,
                                          std::span<const float> weight_scales) {
  ORT_RETURN_IF_ERROR(CheckFloat(bias, "a bias"));
  const bool per_channel = weight_scales.size() > 1;
  ORT_RETURN_IF_NOT(
      bias.shape().rank() == 1 &&
          (!per_channel || bias.NumElements() == static_cast<int64_t>(weight_scales.size())),
      "bias {} does not match {} weight scales", bias.Describe(), weight_scales.size());
  QuantizedInitializer result;
  for (const float weight_scale : weight_scales) {
    result.scales.push_back(
        static_cast<float>(static_cast<double>(input_scale) * static_cast<double>(weight_scale)));
  }
  ORT_ASSIGN_OR_RETURN(result.data, Tensor::Allocate(DataType::kInt32, bias.shape()));
  const float* values = bias.Data<float>();
  int32_t* quantized = result.data.MutableData<int32_t>();
  for (int64_t i = 0; i < bias.NumElements(); ++i) {
    const double scale = result.scales[per_channel ? static_cast<size_t>(i) : 0];
    const double q = std::nearbyint(static_cast<double>(values[i]) / scale);
    quantized[i] =
        static_cast<int32_t>(std::clamp(q, static_cast<double>(std::numeric_limits<int32_t>::min()),
                                        static_cast<double>(std::numeric_limits<int32_t>::max())));
  }
  if (per_channel) {
    result.scale = Tensor::FromVector<float>(
        TensorShape(std::vector<int64_t>{static_cast<int64_t>(result.scales.size())}),
        std::span<const float>(result.scales));
    result.axis = 0;
  } else {
    result.scale = Tensor::Scalar<float>(result.scales[0]);
  }
  return result;
}

}  // namespace ort
