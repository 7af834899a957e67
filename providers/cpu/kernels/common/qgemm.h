// 8-bit integer matrix multiply with zero points, for MatMulInteger, QLinearMatMul, ConvInteger
// and QLinearConv:
//   C[i, j] = sum_p (A[i, p] - a_zero[i]) * (B[p, j] - b_zero[j])      (int32 accumulation)
// A and B are row-major int8 or uint8; zero points are per row of A / per column of B, or one
// value for all (`*_zero.size() == 1`).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "lib/threading/thread_pool.h"

namespace ort {

template <typename TA, typename TB>
void QGemm(int64_t m, int64_t n, int64_t k, const TA* a, int64_t lda,
           std::span<const int32_t> a_zero, const TB* b, int64_t ldb,
           std::span<const int32_t> b_zero, int32_t* c, int64_t ldc, ThreadPool* pool);

/// round_half_even(value * multiplier) + zero_point, saturated to Q.
template <typename Q>
inline Q Requantize(int32_t value, float multiplier, int32_t zero_point) {
  const float scaled =
      std::nearbyint(static_cast<float>(value) * multiplier) + static_cast<float>(zero_point);
  return static_cast<Q>(std::clamp(scaled, static_cast<float>(std::numeric_limits<Q>::min()),
                                   static_cast<float>(std::numeric_limits<Q>::max())));
}

}  // namespace ort
