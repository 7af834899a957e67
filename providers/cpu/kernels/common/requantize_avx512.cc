// RequantizeColumnsAvx512 (requantize.h): per 16 columns, the bias and multipliers loaded once
// for every row; the masked intrinsics throughout (GCC's unmasked ones start from an undefined
// register, which -Wmaybe-uninitialized reports).
#include <immintrin.h>

#include <algorithm>
#include <limits>

#include "providers/cpu/kernels/common/requantize.h"

#include "providers/cpu/kernels/common/isa_target_avx512bw_begin.inc"

namespace ort {
namespace {

template <typename Q>
void Run(const RequantizeBlockArgs& a) {
  const __m512i y_zero = _mm512_set1_epi32(a.y_zero);
  const __m512 low = _mm512_set1_ps(static_cast<float>(std::numeric_limits<Q>::min() - a.y_zero));
  const __m512 high = _mm512_set1_ps(static_cast<float>(std::numeric_limits<Q>::max() - a.y_zero));
  // Locals: the byte stores may alias anything, so fields read through `a` would be reloaded
  // after each of them.
  Q* const out = static_cast<Q*>(a.out);
  const int32_t* const sums = a.sums;
  const int64_t rows = a.rows, cols = a.cols, ldc = a.ldc, ldo = a.ldo;
  for (int64_t j = 0; j < cols; j += 16) {
    const int64_t count = std::min<int64_t>(16, cols - j);
    const auto mask = static_cast<__mmask16>(count == 16 ? 0xffff : (1u << count) - 1);
    const __m512i bias =
        a.bias != nullptr ? _mm512_maskz_loadu_epi32(mask, a.bias + j) : _mm512_setzero_si512();
    const __m512 multipliers = _mm512_maskz_loadu_ps(mask, a.multipliers + j);
    for (int64_t i = 0; i < rows; ++i) {
      const __m512i sum =
          _mm512_add_epi32(_mm512_maskz_loadu_epi32(mask, sums + i * ldc + j), bias);
      __m512 value = _mm512_mul_ps(_mm512_maskz_cvtepi32_ps(mask, sum), multipliers);
      value = _mm512_maskz_min_ps(mask, _mm512_maskz_max_ps(mask, value, low), high);
      const __m512i q = _mm512_add_epi32(_mm512_maskz_cvtps_epi32(mask, value), y_zero);
      _mm512_mask_cvtepi32_storeu_epi8(out + i * ldo + j, mask, q);
    }
  }
}

}  // namespace

void RequantizeColumnsAvx512(const RequantizeBlockArgs& args, bool y_signed) {
  return y_signed ? Run<int8_t>(args) : Run<uint8_t>(args);
}

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
