// NCHWc pooling row kernels for AVX-512F: one 16-channel block per zmm register.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avx512_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx512.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.inc"

}  // namespace

const NchwcPoolKernels nchwc_pool_f32_b16_avx512{Vec::kB, MaxPoolRow, AveragePoolRow};

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
