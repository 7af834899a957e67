// The logistic kernel (logistic.h) for AVX-512F: 16 floats per zmm register.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/common/logistic.h"

#include "providers/cpu/kernels/common/isa_target_avx512_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx512.inc"

#include "providers/cpu/kernels/common/logistic_kernel.inc"

}  // namespace

const LogisticKernel logistic_f32_avx512{LogisticRun};

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
