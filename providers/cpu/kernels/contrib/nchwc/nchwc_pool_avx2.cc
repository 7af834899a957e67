// NCHWc pooling row kernels for AVX2: one 8-channel block per ymm register.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avx2_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx2.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.inc"

}  // namespace

const NchwcPoolKernels nchwc_pool_f32_b8_avx2{Vec::kB, MaxPoolRow, AveragePoolRow};

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
