// The logistic kernel (logistic.h) for AVX2+FMA: 8 floats per ymm register.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/common/logistic.h"

#include "providers/cpu/kernels/common/isa_target_avx2_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx2.inc"

#include "providers/cpu/kernels/common/logistic_kernel.inc"

}  // namespace

const LogisticKernel logistic_f32_avx2{LogisticRun};

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
