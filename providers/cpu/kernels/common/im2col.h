// Im2Col / Col2Im for N-D convolutions: the bridge between sliding windows and matrix products.
// The column matrix has one row per (channel, kernel offset) and one column per output position:
//   col[(c, k_0..k_{d-1}), (o_0..o_{d-1})] = image[c, o_i * stride_i - pad_i + k_i * dilation_i]
// (pad_value outside the image). Col2Im is its adjoint: it adds every column entry back into the
// image position it was read from, which is what ConvTranspose and the Col2Im op need.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/threading/thread_pool.h"

namespace ort {

/// Sizes describing one image and its windows; every span has the spatial rank except
/// `pads` (begin values then end values).
inline constexpr size_t kMaxSpatialRank = 8;

struct ConvGeometryView {
  int64_t channels;
  std::span<const int64_t> input;
  std::span<const int64_t> kernel;
  std::span<const int64_t> strides;
  std::span<const int64_t> dilations;
  std::span<const int64_t> pads;
  std::span<const int64_t> output;
};

namespace im2col_internal {

inline int64_t Product(std::span<const int64_t> values) {
  int64_t product = 1;
  for (int64_t value : values) product *= value;
  return product;
}

/// Output positions before the last spatial axis: the runs of ForEachRun.
inline int64_t OuterPositions(const ConvGeometryView& g) {
  return Product(g.output.first(g.output.size() - 1));
}

/// Visits one column row (channel c, kernel offset `row % kernel_size`) over the runs
/// [outer_begin, outer_end) (of OuterPositions): calls
/// fn(inside, image_offset, col_offset, first, last, width, stride) for every run of `width`
/// output positions along the last spatial axis, the column rows laid out (outer_end -
/// outer_begin) runs apart. When `inside`, output position o in [first, last) reads
/// image[image_offset + o * stride]; the rest of the run is padding.
template <typename Fn>
void ForEachRun(const ConvGeometryView& g, int64_t row, int64_t outer_begin, int64_t outer_end,
                Fn&& fn) {
  const size_t rank = g.input.size();
  const int64_t kernel_size = Product(g.kernel);
  const int64_t input_size = Product(g.input);
  const int64_t c = row / kernel_size;
  // Offset of this kernel tap along each axis, relative to o_i * stride_i.
  int64_t offsets[kMaxSpatialRank];
  int64_t remainder = row % kernel_size;
  for (size_t d = rank; d-- > 0;) {
    offsets[d] = (remainder % g.kernel[d]) * g.dilations[d] - g.pads[d];
    remainder /= g.kernel[d];
  }
  const int64_t last = static_cast<int64_t>(rank) - 1;
  const int64_t width = g.output[last];
  const int64_t in_width = g.input[last];
  const int64_t stride = g.strides[last];
  const int64_t offset = offsets[last];
  // Output positions whose input index o * stride + offset lies in [0, in_width).
  int64_t first = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  int64_t end = in_width - offset <= 0 ? 0 : (in_width - offset - 1) / stride + 1;
  first = std::min(first, width);
  end = std::clamp(end, first, width);
  int64_t index[kMaxSpatialRank] = {};
  for (int64_t d = last - 1, rest = outer_begin; d >= 0; --d) {
    index[d] = rest % g.output[d];
    rest /= g.output[d];
  }
  int64_t col_offset = row * (outer_end - outer_begin) * width;
  for (int64_t o = outer_begin; o < outer_end; ++o, col_offset += width) {
    bool inside = true;
    int64_t image_offset = c * input_size;
    int64_t image_stride = input_size;
    for (int64_t d = 0; d < last; ++d) {
      const int64_t position = index[d] * g.strides[d] + offsets[d];
      inside = inside && position >= 0 && position < g.input[d];
      image_stride /= g.input[d];
      image_offset += position * image_stride;
    }
    fn(inside, image_offset + offset, col_offset, first, end, width, stride);
    for (int64_t d = last - 1; d >= 0; --d) {
      if (++index[d] < g.output[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace im2col_internal

/// Fills `col` ([channels * kernel_size, (outer_end - outer_begin) * output[-1]]) with the
/// output positions of the runs [outer_begin, outer_end) (of OuterPositions: every axis but the
/// last) from `image` ([channels, *input]): a slab of the full column matrix, so that a large
/// convolution multiplies it in pieces that stay in cache. Spatial rank 1 to kMaxSpatialRank.
template <typename T>
void Im2ColRuns(const ConvGeometryView& g, const T* image, T* col, T pad_value, int64_t outer_begin,
                int64_t outer_end, ThreadPool* pool) {
  const int64_t rows = g.channels * im2col_internal::Product(g.kernel);
  const double cost =
      static_cast<double>((outer_end - outer_begin) * g.output[g.output.size() - 1]);
  ThreadPool::TryParallelFor(pool, rows, cost, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      im2col_internal::ForEachRun(g, row, outer_begin, outer_end,
                                  [&](bool inside, int64_t image_offset, int64_t col_offset,
                                      int64_t first, int64_t last, int64_t width, int64_t stride) {
                                    T* out = col + col_offset;
                                    if (!inside) {
                                      std::fill(out, out + width, pad_value);
                                      return;
                                    }
                                    std::fill(out, out + first, pad_value);
                                    if (stride == 1) {
                                      const T* in = image + image_offset + first;
                                      std::copy(in, in + (last - first), out + first);
                                    } else {
                                      for (int64_t o = first; o < last; ++o)
                                        out[o] = image[image_offset + o * stride];
                                    }
                                    std::fill(out + last, out + width, pad_value);
                                  });
    }
  });
}

/// Fills `col` ([channels * kernel_size, output_size]) from `image` ([channels, *input]).
template <typename T>
void Im2Col(const ConvGeometryView& g, const T* image, T* col, T pad_value, ThreadPool* pool) {
  Im2ColRuns(g, image, col, pad_value, 0, im2col_internal::OuterPositions(g), pool);
}

/// Adds `col` ([channels * kernel_size, output_size]) into `image` ([channels, *input]), which
/// the caller initializes. Parallel over channels (rows of one channel write overlapping pixels).
template <typename T>
void Col2Im(const ConvGeometryView& g, const T* col, T* image, ThreadPool* pool) {
  const int64_t kernel_size = im2col_internal::Product(g.kernel);
  const double cost = static_cast<double>(kernel_size * im2col_internal::Product(g.output));
  ThreadPool::TryParallelFor(pool, g.channels, cost, [&](int64_t begin, int64_t end) {
    const int64_t outer = im2col_internal::OuterPositions(g);
    for (int64_t row = begin * kernel_size; row < end * kernel_size; ++row) {
      im2col_internal::ForEachRun(g, row, 0, outer,
                                  [&](bool inside, int64_t image_offset, int64_t col_offset,
                                      int64_t first, int64_t last, int64_t, int64_t stride) {
                                    if (!inside) return;
                                    const T* in = col + col_offset;
                                    for (int64_t o = first; o < last; ++o)
                                      image[image_offset + o * stride] += in[o];
                                  });
    }
  });
}

}  // namespace ort
