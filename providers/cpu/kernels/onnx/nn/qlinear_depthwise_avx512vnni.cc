// DepthwiseRunAvx512Vnni (qlinear_depthwise.h).
// The standard headers first, so that only the kernel's own functions take the target.
#include <immintrin.h>

#include <algorithm>
#include <limits>
#include <type_traits>

#include "providers/cpu/kernels/onnx/nn/qlinear_depthwise.h"

#include "providers/cpu/kernels/common/isa_target_avx512vnni_begin.inc"

#include "providers/cpu/kernels/onnx/nn/qlinear_depthwise_avx512_impl.h"

namespace ort {
namespace {

struct ByteConstants {
  __m512 low, high;
  __m512i y_zero, low_byte;
};

// RequantizeRow's steps for one register of sums.
[[gnu::always_inline]] inline __m512i Requantize(__m512i sums, const float* multipliers,
                                                 const ByteConstants& k) {
  constexpr __mmask16 kAll = 0xffff;
  __m512 value = _mm512_mul_ps(_mm512_maskz_cvtepi32_ps(kAll, sums), _mm512_loadu_ps(multipliers));
  value = _mm512_maskz_min_ps(kAll, _mm512_maskz_max_ps(kAll, value, k.low), k.high);
  return _mm512_add_epi32(_mm512_maskz_cvtps_epi32(kAll, value), k.y_zero);
}

// Requantizes the four interleaved registers of a block (register j, lane i: channel 4i + j)
// and stores the block's bytes in channel order: each output byte goes back to where its input
// byte lay.
[[gnu::always_inline]] inline void StoreBlock(const __m512i (&sums)[4], const float* multipliers,
                                              const ByteConstants& k, __mmask64 mask, void* out) {
  const __m512i q0 = Requantize(sums[0], multipliers, k);
  const __m512i q1 = Requantize(sums[1], multipliers + 16, k);
  const __m512i q2 = Requantize(sums[2], multipliers + 32, k);
  const __m512i q3 = Requantize(sums[3], multipliers + 48, k);
  // Each value's low byte moved to byte j of its lane, the other bytes cleared (masked shifts:
  // GCC's unmasked ones start from an undefined register, which -Wuninitialized reports).
  constexpr __mmask16 kAll = 0xffff;
  const __m512i b1 = _mm512_maskz_srli_epi32(kAll, _mm512_maskz_slli_epi32(kAll, q1, 24), 16);
  const __m512i b2 = _mm512_maskz_srli_epi32(kAll, _mm512_maskz_slli_epi32(kAll, q2, 24), 8);
  const __m512i b3 = _mm512_maskz_slli_epi32(kAll, q3, 24);
  // OR and AND, not VPTERNLOGD: the sanitized -O0 build cannot pass its immediate through.
  const __m512i upper = _mm512_or_si512(_mm512_or_si512(b1, b2), b3);
  const __m512i bytes = _mm512_or_si512(_mm512_and_si512(q0, k.low_byte), upper);
  _mm512_mask_storeu_epi8(out, mask, bytes);
}

// kPixels consecutive pixels of the run from pixel `first`, every block of their channels.
template <int kPixels>
void Pixels(const DepthwiseRun& r, int64_t first, const ByteConstants& k) {
  const auto* origin = static_cast<const uint8_t*>(r.origin) + first * r.step;
  auto* out = static_cast<uint8_t*>(r.out) + first * r.pixel_stride;
  for (int64_t c = 0; c < r.channels; c += 64) {
    const int64_t rest = std::min<int64_t>(64, r.channels - c);
    const __mmask64 mask = rest == 64 ? ~__mmask64{0} : (__mmask64{1} << rest) - 1;
    __m512i sums[kPixels][4];
    for (int j = 0; j < 4; ++j) {
      const __m512i start = _mm512_loadu_si512(r.start + c + 16 * j);
      for (int p = 0; p < kPixels; ++p) sums[p][j] = start;
    }
    const int64_t block_offset = c / 64 * 256;
    for (int64_t t = 0; t < r.taps; ++t) {
      const uint8_t* tap = origin + r.offsets[t] + c;
      const uint8_t* weights = r.byte_weights[t] + block_offset;
      __m512i w[4];
      for (int j = 0; j < 4; ++j) w[j] = _mm512_loadu_si512(weights + 64 * j);
      for (int p = 0; p < kPixels; ++p) {
        const __m512i x = _mm512_maskz_loadu_epi8(mask, tap + p * r.step);
        for (int j = 0; j < 4; ++j) sums[p][j] = _mm512_dpbusd_epi32(sums[p][j], x, w[j]);
      }
    }
    for (int p = 0; p < kPixels; ++p) {
      StoreBlock(sums[p], r.multipliers + c, k, mask, out + p * r.pixel_stride + c);
    }
  }
}

}  // namespace

void DepthwiseRunAvx512Vnni(const DepthwiseRun& run, bool x_signed, bool y_signed) {
  RunAnyTypes<true>(run, x_signed, y_signed);
}

void DepthwiseRunBytesAvx512Vnni(const DepthwiseRun& run, bool y_signed) {
  // A local copy: the byte stores may alias anything, so fields read through `run` would be
  // reloaded after each of them.
  const DepthwiseRun r = run;
  const int32_t low = y_signed ? -128 : 0, high = y_signed ? 127 : 255;
  ByteConstants k;
  k.low = _mm512_set1_ps(static_cast<float>(low - r.y_zero));
  k.high = _mm512_set1_ps(static_cast<float>(high - r.y_zero));
  k.y_zero = _mm512_set1_epi32(r.y_zero);
  k.low_byte = _mm512_set1_epi32(0xff);
  int64_t p = 0;
  for (; p + 4 <= r.pixels; p += 4) Pixels<4>(r, p, k);
  if (p + 2 <= r.pixels) {
    Pixels<2>(r, p, k);
    p += 2;
  }
  if (p < r.pixels) Pixels<1>(r, p, k);
}

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
