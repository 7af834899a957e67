// The body of DepthwiseRunAvx512 and DepthwiseRunAvx512Vnni (qlinear_depthwise.h), included by
// each of their files after its target header: 16 channels per zmm register, four registers per
// block, the last register of a pixel masked to its remaining channels. With VNNI each tap's
// multiply-add is one VPDPWSSD instead of VPMADDWD + VPADDD: one shuffle-port instruction (the
// input's widening) per 16 products instead of two.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <limits>
#include <type_traits>

#include "providers/cpu/kernels/onnx/nn/qlinear_depthwise.h"

namespace ort {
namespace {

// The masked forms throughout: GCC's unmasked intrinsics start from an undefined register,
// which -Wmaybe-uninitialized reports.
template <typename TX>
__m512i Widen(__mmask16 mask, const TX* bytes) {
  const __m128i loaded = _mm_maskz_loadu_epi8(mask, bytes);
  if constexpr (std::is_signed_v<TX>) {
    return _mm512_maskz_cvtepi8_epi32(mask, loaded);
  } else {
    return _mm512_maskz_cvtepu8_epi32(mask, loaded);
  }
}

struct Constants {
  __m512i y_zero;
  __m512 low, high;
};

// Up to four registers of sums, each its own variable: GCC kept an array of them in memory too,
// storing every register back once per tap.
template <bool kVnni, typename TX, typename Q, int kRegisters>
void Block(const DepthwiseRun& r, const TX* origin, int64_t c, __mmask16 last, const Constants& k,
           Q* out) {
  const auto mask = [&](int i) {
    return i + 1 == kRegisters ? last : static_cast<__mmask16>(0xffff);
  };
  const auto start = [&](int i) { return _mm512_maskz_loadu_epi32(mask(i), r.start + c + 16 * i); };
  __m512i acc0 = start(0);
  __m512i acc1 = kRegisters > 1 ? start(1) : _mm512_setzero_si512();
  __m512i acc2 = kRegisters > 2 ? start(2) : _mm512_setzero_si512();
  __m512i acc3 = kRegisters > 3 ? start(3) : _mm512_setzero_si512();
  for (int64_t t = 0; t < r.taps; ++t) {
    const TX* pixel = origin + r.offsets[t] + c;
    const int32_t* weight = r.weights[t] + c;
    // x fits 16 bits, so the low halves' product is the whole one: VPMADDWD adds the high
    // halves' product, zero by the weights' layout, at half VPMULLD's cost.
    const auto step = [&](__m512i acc, int i) {
      const __m512i x = Widen<TX>(mask(i), pixel + 16 * i);
      const __m512i w = _mm512_maskz_loadu_epi32(mask(i), weight + 16 * i);
      if constexpr (kVnni) {
        return _mm512_dpwssd_epi32(acc, x, w);
      } else {
        return _mm512_add_epi32(acc, _mm512_madd_epi16(x, w));
      }
    };
    acc0 = step(acc0, 0);
    if constexpr (kRegisters > 1) acc1 = step(acc1, 1);
    if constexpr (kRegisters > 2) acc2 = step(acc2, 2);
    if constexpr (kRegisters > 3) acc3 = step(acc3, 3);
  }
  // RequantizeRow's steps: scale, clamp to Q's range about the zero point, round half to even.
  const auto store = [&](__m512i acc, int i) {
    const __m512 m = _mm512_maskz_loadu_ps(mask(i), r.multipliers + c + 16 * i);
    __m512 value = _mm512_mul_ps(_mm512_maskz_cvtepi32_ps(mask(i), acc), m);
    value = _mm512_maskz_min_ps(mask(i), _mm512_maskz_max_ps(mask(i), value, k.low), k.high);
    const __m512i q = _mm512_add_epi32(_mm512_maskz_cvtps_epi32(mask(i), value), k.y_zero);
    _mm512_mask_cvtepi32_storeu_epi8(out + c + 16 * i, mask(i), q);
  };
  store(acc0, 0);
  if constexpr (kRegisters > 1) store(acc1, 1);
  if constexpr (kRegisters > 2) store(acc2, 2);
  if constexpr (kRegisters > 3) store(acc3, 3);
}

template <bool kVnni, typename TX, typename Q>
void Run(const DepthwiseRun& run) {
  // A local copy: the byte stores may alias anything, so fields read through `run` would be
  // reloaded after each of them.
  const DepthwiseRun r = run;
  Constants k;
  k.y_zero = _mm512_set1_epi32(r.y_zero);
  k.low = _mm512_set1_ps(static_cast<float>(std::numeric_limits<Q>::min() - r.y_zero));
  k.high = _mm512_set1_ps(static_cast<float>(std::numeric_limits<Q>::max() - r.y_zero));
  const int64_t full = r.channels / 64 * 64, rest = r.channels - full;
  const int registers = static_cast<int>((rest + 15) / 16);
  const auto last = static_cast<__mmask16>(rest % 16 == 0 ? 0xffff : (1u << (rest % 16)) - 1);
  for (int64_t p = 0; p < r.pixels; ++p) {
    const TX* origin = static_cast<const TX*>(r.origin) + p * r.step;
    Q* out = static_cast<Q*>(r.out) + p * r.pixel_stride;
    for (int64_t c = 0; c < full; c += 64) Block<kVnni, TX, Q, 4>(r, origin, c, 0xffff, k, out);
    switch (registers) {
      case 1:
        Block<kVnni, TX, Q, 1>(r, origin, full, last, k, out);
        break;
      case 2:
        Block<kVnni, TX, Q, 2>(r, origin, full, last, k, out);
        break;
      case 3:
        Block<kVnni, TX, Q, 3>(r, origin, full, last, k, out);
        break;
      case 4:
        Block<kVnni, TX, Q, 4>(r, origin, full, last, k, out);
        break;
      default:
        break;
    }
  }
}

template <bool kVnni>
void RunAnyTypes(const DepthwiseRun& run, bool x_signed, bool y_signed) {
  if (x_signed) {
    return y_signed ? Run<kVnni, int8_t, int8_t>(run) : Run<kVnni, int8_t, uint8_t>(run);
  }
  return y_signed ? Run<kVnni, uint8_t, int8_t>(run) : Run<kVnni, uint8_t, uint8_t>(run);
}

}  // namespace
}  // namespace ort
