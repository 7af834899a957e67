// Dynamic quantization in ONNX Runtime's format, with standard ops: a MatMul (or Gemm) of a float
// activation A by a constant weight W becomes
//   DynamicQuantizeLinear(A) -> A_quantized, A_scale, A_zero_point
//   MatMulInteger(A_quantized, W_quantized, A_zero_point, W_zero_point) -> Cast(float)
//   -> Mul(A_scale * W_scale) [-> Add(bias) for a Gemm's C]
// so that activations are quantized at run time and no calibration is needed.
#pragma once

#include <vector>

#include "lib/common/status.h"
#include "lib/ir/model.h"
#include "lib/quantization/quantize_options.h"

namespace ort {

/// Rewrites the selected MatMul and Gemm nodes of `model` (Gemm: transA 0, alpha 1 and beta 1;
/// weights 2-D); returns the per-op-type counts of quantized and float nodes. Errors when the
/// model's ai.onnx opset is below 11 (no DynamicQuantizeLinear).
Result<std::vector<OpTypeCount>> QuantizeDynamic(Model& model, const QuantizeOptions& options);

}  // namespace ort
