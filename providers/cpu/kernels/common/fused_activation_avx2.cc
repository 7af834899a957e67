// FusedActivation::Apply for float, vectorized by the compiler for AVX2 and FMA (8 floats per
// vector).
#include <cmath>
#include <cstdint>

#include "providers/cpu/kernels/common/fused_activation_isa.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma")

namespace ort {
namespace {

#include "providers/cpu/kernels/common/fused_activation_kernel.inc"

}  // namespace

void ApplyFusedActivationAvx2(const FusedActivation& activation, float* data, int64_t count) {
  ApplyActivation(activation, data, count);
}

}  // namespace ort

#pragma GCC pop_options
