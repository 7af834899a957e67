// The statistics of one group of a group normalization, shared by ai.onnx GroupNormalization and
// com.microsoft GroupNorm. A group is `rows` runs of `row_length` contiguous elements, `stride`
// apart: one run for channels-first data, one per pixel for channels-last data.
#pragma once

#include <cmath>
#include <cstdint>

#include "providers/cpu/kernels/common/row_reduce.h"

namespace ort {

template <typename C>
struct GroupStatistics {
  C mean = C(0);
  C inv_std = C(0);
};

/// The group's mean and 1 / sqrt(variance + epsilon), the population variance taken around the
/// mean in a second pass (no cancellation of large sums of squares). Vectorizes when called
/// from a Vectorized() body (RowSum).
template <typename C, typename T>
GroupStatistics<C> ComputeGroupStatistics(const T* data, int64_t rows, int64_t row_length,
                                          int64_t stride, float epsilon) {
  const int64_t count = rows * row_length;
  GroupStatistics<C> statistics;
  C sum = C(0);
  for (int64_t r = 0; r < rows; ++r) {
    sum += RowSum<C>(data + r * stride, row_length, [](T v) { return C(v); });
  }
  const C mean = count > 0 ? sum / static_cast<C>(count) : C(0);
  statistics.mean = mean;
  C squares = C(0);
  for (int64_t r = 0; r < rows; ++r) {
    squares += RowSum<C>(data + r * stride, row_length, [mean](T v) {
      const C centered = C(v) - mean;
      return centered * centered;
    });
  }
  const C variance = count > 0 ? squares / static_cast<C>(count) : C(0);
  statistics.inv_std = C(1) / static_cast<C>(std::sqrt(variance + static_cast<C>(epsilon)));
  return statistics;
}

}  // namespace ort
