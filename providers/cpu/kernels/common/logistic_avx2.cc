// The logistic kernel (logistic.h) for AVX2+FMA: 8 floats per ymm register.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/common/logistic.h"

// clang ignores GCC's target pragma; its attribute pragma gives these functions the same target.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx2.inc"

#include "providers/cpu/kernels/common/logistic_kernel.inc"

}  // namespace

const LogisticKernel logistic_f32_avx2{LogisticRun};

}  // namespace ort

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
