// The int32 convolution of 8-bit operands shared by ConvInteger and QLinearConv.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/framework/op_kernel.h"
#include "providers/cpu/kernels/onnx/nn/conv_plan.h"

namespace ort {

using QuantTypes = TypeList<int8_t, uint8_t>;

/// Integer values of a zero-point tensor of type `expected` holding 1 or `per_channel_count`
/// values; absent means one zero.
Result<std::vector<int32_t>> ReadZeroPoints(const KernelContext& context, const Tensor* t,
                                            DataType expected, int64_t per_channel_count,
                                            const char* name);

/// Validates the zero points and computes out [N, M, spatial...] = conv(x - x_zero, w - w_zero)
/// in int32 (im2col and QGemm per image and group).
Status IntegerConv(KernelContext& context, const Tensor& x, const Tensor* x_zero, const Tensor& w,
                   const Tensor* w_zero, const ConvProblem& problem, int32_t* out);

}  // namespace ort
