// NCHWc pooling row kernels for AVX-512F: one 16-channel block per zmm register.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.h"

// clang ignores GCC's target pragma; its attribute pragma gives these functions the same target.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")
#endif

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx512.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.inc"

}  // namespace

const NchwcPoolKernels nchwc_pool_f32_b16_avx512{Vec::kB, MaxPoolRow, AveragePoolRow};

}  // namespace ort

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
