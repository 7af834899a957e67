#include "providers/cpu/kernels/common/byte_lookup.h"

#include <immintrin.h>

#include <algorithm>

#include "lib/common/cpu_info.h"

namespace ort {
namespace {

// The masked forms, whose unmasked twins start from undefined registers (-Wmaybe-uninitialized).
[[gnu::target("avx512f,avx512bw,avx512vl,avx512vbmi")]] void LookupVbmi(const uint8_t* table,
                                                                        const uint8_t* in,
                                                                        uint8_t* out,
                                                                        int64_t count) {
  constexpr __mmask64 kAll = ~__mmask64{0};
  const __m512i t0 = _mm512_loadu_si512(table), t1 = _mm512_loadu_si512(table + 64);
  const __m512i t2 = _mm512_loadu_si512(table + 128), t3 = _mm512_loadu_si512(table + 192);
  for (int64_t i = 0; i < count; i += 64) {
    const int64_t left = std::min<int64_t>(64, count - i);
    const __mmask64 mask = left == 64 ? kAll : (__mmask64{1} << left) - 1;
    const __m512i index = _mm512_maskz_loadu_epi8(mask, in + i);
    const __m512i low = _mm512_maskz_permutex2var_epi8(kAll, t0, index, t1);
    const __m512i high = _mm512_maskz_permutex2var_epi8(kAll, t2, index, t3);
    _mm512_mask_storeu_epi8(out + i, mask,
                            _mm512_mask_blend_epi8(_mm512_movepi8_mask(index), low, high));
  }
}

}  // namespace

void LookupBytes(const uint8_t* table, const uint8_t* in, uint8_t* out, int64_t count) {
  static const bool vbmi = HasAvx512Vbmi();
  if (vbmi) return LookupVbmi(table, in, out, count);
  for (int64_t i = 0; i < count; ++i) out[i] = table[in[i]];
}

}  // namespace ort
