// DynamicQuantizeLinear's uint8 quantization, shared by that op and com.microsoft
// DynamicQuantizeMatMul: the range of x widened to hold 0, scale = range / 255, zero point
// round(-min / scale), and saturate(round_half_even(x / scale) + zero point), the division as the
// op defines it (not a product by the reciprocal). Written so the loops vectorize; callers run
// them through Vectorized().
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {

struct DynamicQuantization {
  float scale = 0.0f;  // 0 for an all-zero x, which quantizes to the zero point 0
  int32_t zero_point = 0;
};

/// The parameters for x[0, count): 16 running lanes of minimum and maximum, as a float
/// reduction would not vectorize without reassociating; a NaN is passed over, as std::min does.
inline DynamicQuantization DynamicQuantizationOf(const float* __restrict x, int64_t count) {
  constexpr int64_t kLanes = 16;
  float lows[kLanes] = {}, highs[kLanes] = {};  // from 0: the range holds 0
  int64_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    for (int64_t j = 0; j < kLanes; ++j) {
      const float v = x[i + j];
      lows[j] = v < lows[j] ? v : lows[j];
      highs[j] = v > highs[j] ? v : highs[j];
    }
  }
  for (; i < count; ++i) {
    lows[0] = x[i] < lows[0] ? x[i] : lows[0];
    highs[0] = x[i] > highs[0] ? x[i] : highs[0];
  }
  const float low = *std::min_element(lows, lows + kLanes);
  const float high = *std::max_element(highs, highs + kLanes);
  DynamicQuantization q;
  q.scale = (high - low) / 255.0f;
  if (q.scale != 0.0f) {
    q.zero_point =
        static_cast<int32_t>(std::clamp(std::nearbyint((0.0f - low) / q.scale), 0.0f, 255.0f));
  }
  return q;
}

/// out[i] = saturate(round_half_even(x[i] / scale) + zero_point), for scale > 0.
inline void QuantizeDynamic(const float* __restrict x, int64_t count, const DynamicQuantization& q,
                            uint8_t* __restrict out) {
  constexpr float kRound = 12582912.0f;  // 1.5 x 2^23: adding it rounds half to even
  const float scale = q.scale, zero = static_cast<float>(q.zero_point);
  for (int64_t i = 0; i < count; ++i) {
    float v = (x[i] / scale + kRound) - kRound + zero;
    v = v < 0.0f ? 0.0f : v;
    v = v > 255.0f ? 255.0f : v;
    out[i] = static_cast<uint8_t>(static_cast<int32_t>(v));
  }
}

/// DynamicQuantizationOf(x) and x quantized with it into out, the quantization shared by the
/// pool's threads.
inline DynamicQuantization QuantizeDynamicRange(const float* x, int64_t count, uint8_t* out,
                                                ThreadPool* pool) {
  DynamicQuantization q;
  Vectorized([&] { q = DynamicQuantizationOf(x, count); });
  if (q.scale == 0.0f) {
    std::fill(out, out + count, static_cast<uint8_t>(q.zero_point));
    return q;
  }
  VectorizedParallelFor(pool, count, 4.0, [&](int64_t begin, int64_t end) {
    QuantizeDynamic(x + begin, end - begin, q, out + begin);
  });
  return q;
}

}  // namespace ort
