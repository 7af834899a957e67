// Sums and maxima of contiguous rows with one partial result per lane of a 64-byte vector, so the
// compiler vectorizes them without reassociating floating-point math (GCC keeps a plain `sum +=`
// loop scalar). Called from Vectorized() bodies they run at that instruction set's width.
#pragma once

#include <cstdint>

#include "providers/cpu/kernels/onnx/math/fast_math.h"

namespace ort {

template <typename C>
inline constexpr int kRowLanes = static_cast<int>(64 / sizeof(C));

/// Sum over i < n of f(x[i]), f mapping T to the accumulation type C.
template <typename C, typename T, typename F>
C RowSum(const T* x, int64_t n, F f) {
  constexpr int kLanes = kRowLanes<C>;
  C lanes[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) lanes[j] += f(x[i + j]);
  }
  C result = 0;
  for (int j = 0; j < kLanes; ++j) result += lanes[j];
  for (; i < n; ++i) result += f(x[i]);
  return result;
}

template <typename C>
C RowSum(const C* x, int64_t n) {
  return RowSum<C>(x, n, [](C v) { return v; });
}

/// Largest of x[0..n), n > 0 (NaN elements are skipped unless x[0] is NaN).
template <typename C>
C RowMax(const C* x, int64_t n) {
  constexpr int kLanes = kRowLanes<C>;
  C lanes[kLanes];
  for (int j = 0; j < kLanes; ++j) lanes[j] = x[0];
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    // Kept as a loop for the loop vectorizer: fully unrolled, GCC 12's straight-line vectorizer
    // leaves the selects scalar.
#pragma GCC unroll 1
    for (int j = 0; j < kLanes; ++j) lanes[j] = Select(x[i + j] > lanes[j], x[i + j], lanes[j]);
  }
  C result = x[0];
  for (int j = 0; j < kLanes; ++j) result = lanes[j] > result ? lanes[j] : result;
  for (; i < n; ++i) result = x[i] > result ? x[i] : result;
  return result;
}

}  // namespace ort
