// FusedActivation::Apply for float, vectorized by the compiler for AVX-512 (16 floats per vector).
#include <cmath>
#include <cstdint>

#include "providers/cpu/kernels/common/fused_activation_isa.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx2,fma")

namespace ort {
namespace {

#include "providers/cpu/kernels/common/fused_activation_kernel.inc"

}  // namespace

void ApplyFusedActivationAvx512(const FusedActivation& activation, float* data, int64_t count) {
  ApplyActivation(activation, data, count);
}

}  // namespace ort

#pragma GCC pop_options
