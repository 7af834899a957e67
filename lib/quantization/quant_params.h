// Linear 8-bit quantization parameters as ONNX Runtime's quantizer computes them
// (onnxruntime/python/tools/quantization/quant_utils.py compute_scale_zp), and quantizing
// weights and biases with them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/tensor.h"

namespace ort {

struct FloatRange {
  float min = 0;
  float max = 0;
};

/// real = (quantized - zero_point) * scale, quantized in `type` (kUint8 or kInt8).
struct QuantParams {
  float scale = 1;
  int32_t zero_point = 0;
  DataType type = DataType::kUint8;
};

/// Parameters covering `range` widened to hold 0 (so that zero padding is exact). Symmetric:
/// int8 in [-127, 127] with zero point 0 over [-max|x|, max|x|]; asymmetric: `type` over its
/// whole range. A range of only zeros gets scale 1.
QuantParams ComputeQuantParams(FloatRange range, DataType type, bool symmetric);

/// `value` rounded half to even in units of `params`, saturated to its type.
int32_t QuantizeValue(float value, const QuantParams& params);

/// A float initializer stored quantized, for a DequantizeLinear to read: per tensor (scale and
/// zero point scalars) or per channel along `axis` (1-D, one entry per channel).
struct QuantizedInitializer {
  Tensor data;
  Tensor scale;
  Tensor zero_point;
  std::optional<int64_t> axis;
  std::vector<float> scales;  // per channel, or the one scale
};

/// Quantizes a float weight to `type`: int8 symmetric or uint8 asymmetric, per channel along
/// `axis` when given.
Result<QuantizedInitializer> QuantizeWeight(const Tensor& weight, DataType type,
                                            std::optional<int64_t> axis);

/// Quantizes a float constant with activation-style parameters of its own range (a constant
/// operand of Add, Mul or Concat, so that it has its activation partner's type).
Result<QuantizedInitializer> QuantizeConstant(const Tensor& value, DataType type, bool symmetric);

/// Quantizes a 1-D float bias to int32 in units of input_scale * weight_scales[c] (zero point 0);
/// one weight scale means per tensor. The result has no zero point tensor (it defaults to 0).
Result<QuantizedInitializer> QuantizeBias(const Tensor& bias, float input_scale,
                                          std::span<const float> weight_scales);

}  // namespace ort
