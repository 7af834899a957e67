// QLinearConv: the int32 convolution of 8-bit X and W minus their zero points, plus an int32
// bias, requantized with x_scale * w_scale / y_scale and y_zero_point (W's zero point and scale
// per tensor or per output channel).
//
// A 2-D convolution with constant filters runs channels-last, as ORT's does: X is transposed to
// NHWC, its patches laid out one row per output pixel (taps x group channels, padding filled
// with X's zero point) and multiplied by the filters, packed once at session start as B, so that
// the per-filter zero points and scales fall on columns; each row of the product is requantized
// and scattered back to NCHW. A depthwise convolution (one channel and one filter per group)
// sums its taps directly. Anything else goes through IntegerConv.
//
// com.microsoft QLinearConv with channels_last = 1 (what the qlinear_nhwc_layout pass makes, as
// ORT's NhwcTransformer does) reads X and writes Y channels-last, [N, spatial..., C]: the fast
// paths then skip both transposes, so a chain of such convolutions never leaves NHWC.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "providers/cpu/kernels/common/qgemm.h"
#include "providers/cpu/kernels/common/thread_scratch.h"
#include "providers/cpu/kernels/common/transpose_bytes.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"
#include "providers/cpu/kernels/onnx/nn/qlinear_depthwise.h"

namespace ort {
namespace {

/// The filters of each group as a [taps x group channels, group filters] matrix, packed.
using PackedGroupFilters = std::vector<std::unique_ptr<PackedQgemmB>>;

template <typename TW>
PackedGroupFilters PackFilters(const Tensor& w, std::span<const int32_t> w_zero, int64_t group) {
  const TensorShape& shape = w.shape();
  const int64_t filters = shape[0], group_channels = shape[1];
  const int64_t taps = shape[2] * shape[3];
  const int64_t group_filters = filters / group;
  const int64_t depth = taps * group_channels;
  const TW* data = w.Data<TW>();
  // Each filter's taps x channels, tap-major as the patch rows are, one row per filter: B
  // transposed, which packs by whole groups of depth.
  std::vector<TW> rows(static_cast<size_t>(group_filters * depth));
  PackedGroupFilters packed;
  for (int64_t g = 0; g < group; ++g) {
    for (int64_t f = 0; f < group_filters; ++f) {
      const TW* filter = data + (g * group_filters + f) * group_channels * taps;
      TW* row = rows.data() + f * depth;
      for (int64_t c = 0; c < group_channels; ++c) {
        for (int64_t tap = 0; tap < taps; ++tap)
          row[tap * group_channels + c] = filter[c * taps + tap];
      }
    }
    const auto zeros =
        w_zero.size() == 1 ? w_zero : w_zero.subspan(g * group_filters, group_filters);
    packed.push_back(std::make_unique<PackedQgemmB>(BestQgemmKernelFor(depth, group_filters), depth,
                                                    group_filters, rows.data(), depth, zeros,
                                                    true));
  }
  return packed;
}

/// The filters packed when W (input 3) and its zero point (input 5) are constants of a 2-D
/// convolution whose groups have more than one filter; empty otherwise.
PackedGroupFilters PackConstantFilters(const KernelInfo& info, int64_t group) {
  const Tensor* w = info.ConstantInput(3);
  const Tensor* zero = info.ConstantInput(5);
  if (w == nullptr || zero == nullptr || w->shape().rank() != 4 || w->NumElements() == 0 ||
      zero->dtype() != w->dtype() || group <= 0) {
    return {};
  }
  const int64_t filters = w->shape()[0];
  if (filters % group != 0 || filters / group < 2) return {};
  if (zero->NumElements() != 1 && zero->NumElements() != filters) return {};
  std::vector<int32_t> zeros(static_cast<size_t>(zero->NumElements()));
  if (w->dtype() == DataType::kInt8) {
    for (size_t i = 0; i < zeros.size(); ++i) zeros[i] = zero->Data<int8_t>()[i];
    return PackFilters<int8_t>(*w, zeros, group);
  }
  if (w->dtype() != DataType::kUint8) return {};
  for (size_t i = 0; i < zeros.size(); ++i) zeros[i] = zero->Data<uint8_t>()[i];
  return PackFilters<uint8_t>(*w, zeros, group);
}

/// What turns an int32 sum of output channel f into Q: bias[f] then multipliers[f].
struct Requantization {
  std::vector<float> multipliers;
  const int32_t* bias = nullptr;
  int32_t zero_point = 0;
};

/// Bytes of 8-bit tensors through TransposeBytes, whichever signedness they have, shared among
/// the pool's threads by ranges of 64 source rows or, with fewer rows, 64 source columns.
template <typename T>
void TransposeTiles(const T* src, int64_t rows, int64_t cols, int64_t src_stride, T* dst,
                    int64_t dst_stride, ThreadPool* pool) {
  static_assert(sizeof(T) == 1);
  const auto* in = reinterpret_cast<const uint8_t*>(src);
  auto* out = reinterpret_cast<uint8_t*>(dst);
  constexpr int64_t kRange = 64;
  const bool by_rows = rows >= cols;
  const int64_t ranges = ((by_rows ? rows : cols) + kRange - 1) / kRange;
  const double cost = static_cast<double>(kRange * (by_rows ? cols : rows));
  ThreadPool::TryParallelFor(pool, ranges, cost, [&](int64_t begin, int64_t end) {
    if (by_rows) {
      const int64_t first = begin * kRange, count = std::min(rows, end * kRange) - first;
      TransposeBytes(in + first * src_stride, src_stride, out + first, dst_stride, count, cols);
    } else {
      const int64_t first = begin * kRange, count = std::min(cols, end * kRange) - first;
      TransposeBytes(in + first, src_stride, out + first * dst_stride, dst_stride, rows, count);
    }
  });
}

/// Copies `count` bytes: the few of a narrow image's pixel (3 channels, or a window row of them)
/// with a pair of overlapping fixed-size moves instead of a call to memmove.
template <typename T>
void CopyBytes(const T* __restrict src, int64_t count, T* __restrict dst) {
  static_assert(sizeof(T) == 1);
  if (count >= 8 && count <= 16) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + count - 8, src + count - 8, 8);
  } else if (count >= 4 && count < 8) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + count - 4, src + count - 4, 4);
  } else if (count < 4) {
    for (int64_t i = 0; i < count; ++i) dst[i] = src[i];
  } else {
    std::memcpy(dst, src, static_cast<size_t>(count));
  }
}

/// Which of X and Y are channels-last ([N, spatial..., C]) rather than [N, C, spatial...].
struct Layouts {
  bool input_nhwc = false;
  bool output_nhwc = false;
};

template <typename TX, typename Q>
void RunChannelsLast(const ConvProblem& p, const TX* x, int32_t x_zero,
                     const PackedGroupFilters& filters, const Requantization& requant, Q* y,
                     Layouts layouts, ThreadPool* pool) {
  const WindowGeometry& g = p.geometry;
  const int64_t in_h = g.input[0], in_w = g.input[1];
  const int64_t out_h = g.output[0], out_w = g.output[1];
  const int64_t k_h = g.kernel[0], k_w = g.kernel[1];
  const int64_t pixels = out_h * out_w, in_pixels = in_h * in_w;
  const int64_t channels = p.channels, group_channels = channels / p.group;
  const int64_t group_filters = p.filters / p.group;
  const int64_t depth = k_h * k_w * group_channels;
  const bool direct = g.IsPointwise() && p.group == 1;
  // A window row's taps are one run of bytes in NHWC: neighbouring pixels, all channels.
  const bool contiguous_taps = p.group == 1 && g.dilations[1] == 1;
  const int64_t filters_total = p.filters;
  thread_local AlignedScratch<TX> image_scratch, rows_scratch;
  thread_local AlignedScratch<Q> out_scratch;
  TX* image_buffer =
      layouts.input_nhwc ? nullptr : image_scratch.Get(static_cast<size_t>(in_pixels * channels));
  TX* rows = direct ? nullptr : rows_scratch.Get(static_cast<size_t>(pixels * depth));
  Q* out_buffer =
      layouts.output_nhwc ? nullptr : out_scratch.Get(static_cast<size_t>(pixels * filters_total));
  const int32_t x_zero_values[] = {x_zero};
  if (direct && layouts.input_nhwc && layouts.output_nhwc) {
    // The whole batch is one product: one parallel loop over all its rows instead of one per
    // image (a 14 x 14 map's 196 rows are too few tasks for the threads).
    QgemmRequantizedOutput output;
    output.bias = requant.bias;
    output.multipliers = requant.multipliers.data();
    output.zero_point = requant.zero_point;
    output.is_signed = std::is_signed_v<Q>;
    output.out = y;
    output.ldo = filters_total;
    QGemmPackedRequantized<TX>(p.batch * pixels, x, channels, x_zero_values, filters[0]->view(),
                               output, pool);
    return;
  }
  for (int64_t n = 0; n < p.batch; ++n) {
    const TX* image = x + n * channels * in_pixels;
    if (!layouts.input_nhwc) {
      TransposeTiles(image, channels, in_pixels, in_pixels, image_buffer, channels, pool);
      image = image_buffer;
    }
    Q* out_rows = layouts.output_nhwc ? y + n * pixels * filters_total : out_buffer;
    for (int64_t grp = 0; grp < p.group; ++grp) {
      const TX* a = image + grp * group_channels;
      int64_t lda = channels;
      if (!direct) {
        ThreadPool::TryParallelFor(
            pool, out_h, static_cast<double>(out_w * depth), [&](int64_t begin, int64_t end) {
              for (int64_t oy = begin; oy < end; ++oy) {
                for (int64_t ox = 0; ox < out_w; ++ox) {
                  TX* row = rows + (oy * out_w + ox) * depth;
                  const int64_t ix0 = ox * g.strides[1] - g.pads[1];
                  const bool row_inside = ix0 >= 0 && ix0 + (k_w - 1) * g.dilations[1] < in_w;
                  for (int64_t ky = 0; ky < k_h; ++ky) {
                    const int64_t iy = oy * g.strides[0] - g.pads[0] + ky * g.dilations[0];
                    if (iy < 0 || iy >= in_h) {
                      std::fill(row, row + k_w * group_channels, static_cast<TX>(x_zero));
                      row += k_w * group_channels;
                      continue;
                    }
                    const TX* source_row = a + iy * in_w * channels;
                    if (row_inside && contiguous_taps) {
                      CopyBytes(source_row + ix0 * channels, k_w * channels, row);
                      row += k_w * channels;
                      continue;
                    }
                    for (int64_t kx = 0; kx < k_w; ++kx, row += group_channels) {
                      const int64_t ix = ix0 + kx * g.dilations[1];
                      if (ix < 0 || ix >= in_w) {
                        std::fill(row, row + group_channels, static_cast<TX>(x_zero));
                      } else {
                        CopyBytes(source_row + ix * channels, group_channels, row);
                      }
                    }
                  }
                }
              }
            });
        a = rows;
        lda = depth;
      }
      const int64_t first_filter = grp * group_filters;
      QgemmRequantizedOutput output;
      output.bias = requant.bias != nullptr ? requant.bias + first_filter : nullptr;
      output.multipliers = requant.multipliers.data() + first_filter;
      output.zero_point = requant.zero_point;
      output.is_signed = std::is_signed_v<Q>;
      output.out = out_rows + first_filter;
      output.ldo = filters_total;
      QGemmPackedRequantized<TX>(pixels, a, lda, x_zero_values, filters[grp]->view(), output, pool);
    }
    if (!layouts.output_nhwc) {
      TransposeTiles(out_buffer, pixels, filters_total, filters_total,
                     y + n * filters_total * pixels, pixels, pool);
    }
  }
}

// acc[c] += (pixel[c] - zero) * taps[c] over the channels of one input pixel, wrapping as the
// int32 accumulation does. Its own function with restrict pointers: acc and taps are both int32,
// which the compiler must otherwise assume overlap.
template <typename TX>
void AddPixel(const TX* __restrict pixel, const int32_t* __restrict taps, uint32_t zero,
              int64_t channels, uint32_t* __restrict acc) {
  for (int64_t c = 0; c < channels; ++c) {
    acc[c] += (static_cast<uint32_t>(static_cast<int32_t>(pixel[c])) - zero) *
              static_cast<uint32_t>(taps[c]);
  }
}

/// Output rows [begin, end) of a depthwise convolution through DepthwiseRunAvx512, channels
/// [c_begin, c_end) of `channels`: the pixels whose taps all lie inside the image as one run per
/// row, each border pixel on its own with its in-bounds taps.
template <typename TX, typename Q>
void RunDepthwiseRowsAvx512(const WindowGeometry& g, int64_t channels, int64_t c_begin,
                            int64_t c_end, const TX* image, const DepthwiseFilters& filters,
                            const Requantization& requant, const DepthwiseStarts& starts,
                            int64_t begin, int64_t end, Q* out_rows) {
  const std::vector<int32_t>& weights = filters.halves;
  const int64_t in_h = g.input[0], in_w = g.input[1], out_w = g.output[1];
  const int64_t k_h = g.kernel[0], k_w = g.kernel[1];
  const int64_t stride = g.strides[1], pad = g.pads[1], dilation = g.dilations[1];
  // The output columns whose windows lie inside the image's columns: [inner_begin, inner_end).
  const int64_t inner_begin = std::min(out_w, (pad + stride - 1) / stride);
  const int64_t last_start = in_w - 1 + pad - (k_w - 1) * dilation;
  const int64_t inner_end =
      last_start < 0 ? inner_begin : std::clamp(last_start / stride + 1, inner_begin, out_w);
  std::vector<int64_t> offsets(static_cast<size_t>(k_h * k_w));
  std::vector<const int32_t*> tap_weights(static_cast<size_t>(k_h * k_w));
  const int64_t count = c_end - c_begin;
  const auto depthwise = GetCpuFeatures().avx512_vnni ? DepthwiseRunAvx512Vnni : DepthwiseRunAvx512;
  image += c_begin;
  DepthwiseRun run;
  run.offsets = offsets.data();
  run.weights = tap_weights.data();
  run.channels = count;
  run.pixel_stride = channels;
  run.y_zero = requant.zero_point;
  // The byte kernel where RunDepthwise chose it (chunks start at multiples of 64 channels, as
  // its blocks do).
  const bool bytes = starts.interleaved;
  run.multipliers = (bytes ? starts.interleaved_multipliers : requant.multipliers).data() + c_begin;
  const auto run_kernel = [&] {
    if (bytes) {
      DepthwiseRunBytesAvx512Vnni(run, std::is_signed_v<Q>);
    } else {
      depthwise(run, std::is_signed_v<TX>, std::is_signed_v<Q>);
    }
  };
  const int64_t byte_tap_size = (channels + 63) / 64 * 256;
  std::vector<const uint8_t*> byte_weights(bytes ? offsets.size() : 0);
  run.byte_weights = byte_weights.data();
  for (int64_t oy = begin; oy < end; ++oy) {
    Q* row_out = out_rows + oy * out_w * channels + c_begin;
    // Pixels ox, in runs of one at the borders: taps in bounds, offsets from the image.
    const auto border = [&](int64_t ox) {
      int64_t taps = 0;
      for (int64_t ky = 0; ky < k_h; ++ky) {
        const int64_t iy = oy * g.strides[0] - g.pads[0] + ky * g.dilations[0];
        if (iy < 0 || iy >= in_h) continue;
        for (int64_t kx = 0; kx < k_w; ++kx) {
          const int64_t ix = ox * stride - pad + kx * dilation;
          if (ix < 0 || ix >= in_w) continue;
          offsets[taps] = (iy * in_w + ix) * channels;
          if (bytes) {
            byte_weights[taps] =
                filters.bytes.data() + (ky * k_w + kx) * byte_tap_size + c_begin / 64 * 256;
          }
          tap_weights[taps++] = weights.data() + (ky * k_w + kx) * channels + c_begin;
        }
      }
      run.origin = image;
      run.pixels = 1;
      run.taps = taps;
      run.out = row_out + ox * channels;
      run.start = starts.At(oy, ox) + c_begin;
      run_kernel();
    };
    for (int64_t ox = 0; ox < inner_begin; ++ox) border(ox);
    if (inner_end > inner_begin) {
      int64_t taps = 0;
      for (int64_t ky = 0; ky < k_h; ++ky) {
        const int64_t iy = oy * g.strides[0] - g.pads[0] + ky * g.dilations[0];
        if (iy < 0 || iy >= in_h) continue;
        for (int64_t kx = 0; kx < k_w; ++kx) {
          offsets[taps] = (iy * in_w + kx * dilation) * channels;
          if (bytes) {
            byte_weights[taps] =
                filters.bytes.data() + (ky * k_w + kx) * byte_tap_size + c_begin / 64 * 256;
          }
          tap_weights[taps++] = weights.data() + (ky * k_w + kx) * channels + c_begin;
        }
      }
      run.origin = image + (inner_begin * stride - pad) * channels;
      run.step = stride * channels;
      run.pixels = inner_end - inner_begin;
      run.taps = taps;
      run.out = row_out + inner_begin * channels;
      run.start = starts.At(oy, inner_begin) + c_begin;
      run_kernel();
    }
    for (int64_t ox = std::max(inner_begin, inner_end); ox < out_w; ++ox) border(ox);
  }
}

/// One channel and one filter per group, 2-D, channels-last as ORT's: X is transposed to NHWC,
/// each output pixel sums its in-bounds taps as loops over all channels at once (vectorized
/// across channels, whatever the image size), and the requantized rows go back to NCHW.
/// `filters` come from DepthwiseWeights.
template <typename TX, typename Q>
void RunDepthwise(const ConvProblem& p, const TX* x, int32_t x_zero,
                  const DepthwiseFilters& filters, const Requantization& requant, Q* y,
                  Layouts layouts, ThreadPool* pool, const DepthwiseStartsCache* cache) {
  const std::vector<int32_t>& weights = filters.halves;
  const WindowGeometry& g = p.geometry;
  const int64_t in_h = g.input[0], in_w = g.input[1];
  const int64_t out_h = g.output[0], out_w = g.output[1];
  const int64_t k_h = g.kernel[0], k_w = g.kernel[1];
  const int64_t channels = p.channels, taps = k_h * k_w;
  const int64_t in_pixels = in_h * in_w, pixels = out_h * out_w;
  // The bias to start every pixel from.
  std::vector<int32_t> start(static_cast<size_t>(channels), 0);
  if (requant.bias != nullptr) std::copy_n(requant.bias, channels, start.begin());
  const bool avx512 = HasAvx512BwVl();
  // uint8 images with weights that fit int8 run on bytes (DepthwiseRunBytesAvx512Vnni).
  const bool bytes = std::is_same_v<TX, uint8_t> && !filters.bytes.empty();
  const auto fold = [&] {
    return FoldDepthwiseStarts(g, channels, weights, start, x_zero, bytes, requant.multipliers);
  };
  std::shared_ptr<const DepthwiseStarts> starts_held;
  if (avx512) {
    starts_held = cache != nullptr
                      ? cache->Get({x_zero, in_h, in_w, bytes, requant.multipliers}, fold)
                      : std::make_shared<const DepthwiseStarts>(fold());
  }
  static const DepthwiseStarts kUnused;
  const DepthwiseStarts& starts = starts_held != nullptr ? *starts_held : kUnused;
  thread_local AlignedScratch<TX> image_scratch;
  thread_local AlignedScratch<Q> out_scratch;
  TX* image_buffer =
      layouts.input_nhwc ? nullptr : image_scratch.Get(static_cast<size_t>(in_pixels * channels));
  Q* out_buffer =
      layouts.output_nhwc ? nullptr : out_scratch.Get(static_cast<size_t>(pixels * channels));
  const auto zero = static_cast<uint32_t>(x_zero);
  const double cost = static_cast<double>(out_w * taps * channels * 2);
  // Few rows (the 7 x 7 maps of a network's end) split their channels too, in whole blocks of
  // 64, so that every thread has work.
  const int64_t blocks = (channels + 63) / 64;
  const int64_t chunk = out_h >= 16 ? blocks * 64 : (blocks + 3) / 4 * 64;
  const int64_t chunks = (channels + chunk - 1) / chunk;
  // Rows of `images` consecutive NHWC images from `image` to `out`, as tasks image-major, then
  // chunk-major, so that a thread's range holds runs of rows of one image and chunk.
  const auto run_avx512 = [&](const TX* image, Q* out, int64_t images) {
    const int64_t image_tasks = out_h * chunks;
    ThreadPool::TryParallelFor(
        pool, images * image_tasks, cost / static_cast<double>(chunks),
        [&](int64_t first, int64_t last) {
          for (int64_t task = first; task < last;) {
            const int64_t n = task / image_tasks, within = task % image_tasks;
            const int64_t c_begin = within / out_h * chunk, row = within % out_h;
            const int64_t rows = std::min(last - task, out_h - row);
            RunDepthwiseRowsAvx512<TX, Q>(g, channels, c_begin, std::min(channels, c_begin + chunk),
                                          image + n * in_pixels * channels, filters, requant,
                                          starts, row, row + rows, out + n * pixels * channels);
            task += rows;
          }
        });
  };
  if (avx512 && layouts.input_nhwc && layouts.output_nhwc) {
    // The whole batch in one parallel loop.
    run_avx512(x, y, p.batch);
    return;
  }
  for (int64_t n = 0; n < p.batch; ++n) {
    const TX* image = x + n * channels * in_pixels;
    if (!layouts.input_nhwc) {
      TransposeTiles(image, channels, in_pixels, in_pixels, image_buffer, channels, pool);
      image = image_buffer;
    }
    Q* out_rows = layouts.output_nhwc ? y + n * channels * pixels : out_buffer;
    if (avx512) {
      run_avx512(image, out_rows, 1);
    } else {
      VectorizedParallelFor(pool, out_h, cost, [&](int64_t begin, int64_t end) {
        std::vector<int32_t> sums(static_cast<size_t>(channels));
        auto* acc = reinterpret_cast<uint32_t*>(sums.data());
        for (int64_t oy = begin; oy < end; ++oy) {
          for (int64_t ox = 0; ox < out_w; ++ox) {
            std::copy(start.begin(), start.end(), sums.begin());
            for (int64_t ky = 0; ky < k_h; ++ky) {
              const int64_t iy = oy * g.strides[0] - g.pads[0] + ky * g.dilations[0];
              if (iy < 0 || iy >= in_h) continue;
              for (int64_t kx = 0; kx < k_w; ++kx) {
                const int64_t ix = ox * g.strides[1] - g.pads[1] + kx * g.dilations[1];
                if (ix < 0 || ix >= in_w) continue;
                AddPixel(image + (iy * in_w + ix) * channels,
                         weights.data() + (ky * k_w + kx) * channels, zero, channels, acc);
              }
            }
            RequantizeRow<Q>(sums.data(), channels, requant.multipliers.data(), true,
                             requant.zero_point, out_rows + (oy * out_w + ox) * channels);
          }
        }
      });
    }
    if (!layouts.output_nhwc) {
      TransposeTiles(out_buffer, pixels, channels, channels, y + n * channels * pixels, pixels,
                     pool);
    }
  }
}

/// `shape` with its last axis moved to position 1 (`to_front`) or its axis 1 moved last.
TensorShape MoveChannelAxis(const TensorShape& shape, bool to_front) {
  std::vector<int64_t> dims = shape.dims();
  if (to_front) {
    std::rotate(dims.begin() + 1, dims.end() - 1, dims.end());
  } else {
    std::rotate(dims.begin() + 1, dims.begin() + 2, dims.end());
  }
  return TensorShape(std::move(dims));
}

/// Each image of `src`, [spatial, channels] (to_front) or [channels, spatial], transposed.
template <typename T>
void MoveChannels(const T* src, int64_t batch, int64_t channels, int64_t spatial, bool to_front,
                  T* dst, ThreadPool* pool) {
  const int64_t rows = to_front ? spatial : channels, cols = to_front ? channels : spatial;
  for (int64_t n = 0; n < batch; ++n) {
    TransposeTiles(src + n * rows * cols, rows, cols, cols, dst + n * rows * cols, rows, pool);
  }
}

class QLinearConv final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info, false));
    ORT_ASSIGN_OR_RETURN(const int64_t channels_last,
                         info.GetAttributeOr<int64_t>("channels_last", 0));
    channels_last_ = channels_last != 0;
    packed_filters_ = PackConstantFilters(info, attributes_.group);
    depthwise_weights_ = ConstantDepthwiseWeights(info, attributes_.group);
    constant_bias_ = !info.node().HasInput(8) || info.ConstantInput(8) != nullptr;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    const Tensor* in[8];
    for (size_t i = 0; i < 8; ++i) {
      ORT_ASSIGN_OR_RETURN(in[i], context.RequiredInput(i));
    }
    const Tensor* bias = context.Input(8);
    const Tensor& x = *in[0];
    const Tensor& w = *in[3];
    const Tensor& y_zero = *in[7];
    if (channels_last_ && x.shape().rank() < 3) {
      return context.Error("channels-last X must have rank 3 or more, got {}", x.shape().rank());
    }
    const TensorShape x_shape = channels_last_ ? MoveChannelAxis(x.shape(), true) : x.shape();
    auto problem = PlanConv(attributes_, x_shape, w.shape());
    if (!problem.ok()) return context.Error("{}", problem.status().message());
    const int64_t filters = problem->filters;
    if (in[1]->NumElements() != 1 || in[6]->NumElements() != 1 || y_zero.NumElements() != 1) {
      return context.Error("x_scale, y_scale and y_zero_point must be scalars");
    }
    if (in[4]->NumElements() != 1 && in[4]->NumElements() != filters) {
      return context.Error("w_scale must hold 1 or {} values", filters);
    }
    if (bias != nullptr && (bias->dtype() != DataType::kInt32 || bias->NumElements() != filters)) {
      return context.Error("B must be int32 with {} values", filters);
    }
    ORT_ASSIGN_OR_RETURN(const std::vector<float> x_scale, ReadFloatParams<float>(*in[1]));
    ORT_ASSIGN_OR_RETURN(const std::vector<float> w_scale, ReadFloatParams<float>(*in[4]));
    ORT_ASSIGN_OR_RETURN(const std::vector<float> y_scale, ReadFloatParams<float>(*in[6]));
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> y_zp,
                         ReadZeroPoints(context, &y_zero, y_zero.dtype(), 1, "y_zero_point"));
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> x_zp,
                         ReadZeroPoints(context, in[2], x.dtype(), 1, "x_zero_point"));
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> w_zp,
                         ReadZeroPoints(context, in[5], w.dtype(), filters, "w_zero_point"));
    const TensorShape y_shape =
        channels_last_ ? MoveChannelAxis(problem->OutputShape(), false) : problem->OutputShape();
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, y_zero.dtype(), y_shape));
    if (y->NumElements() == 0) return Status::OK();
    Requantization requant;
    requant.multipliers.resize(static_cast<size_t>(filters));
    for (int64_t f = 0; f < filters; ++f) {
      requant.multipliers[f] =
          RequantizationFactor(x_scale[0] * w_scale[w_scale.size() == 1 ? 0 : f] / y_scale[0]);
    }
    requant.bias = bias != nullptr ? bias->Data<int32_t>() : nullptr;
    requant.zero_point = y_zp[0];
    const ConvProblem& p = *problem;
    const bool two_d = p.geometry.rank() == 2;
    const bool depthwise = two_d && p.group == p.channels && p.group == p.filters;
    const Layouts layouts{channels_last_, channels_last_};
    ThreadPool* pool = context.thread_pool();
    return DispatchByType<QuantTypes>(y->dtype(), "QLinearConv", [&]<typename Q>() {
      return DispatchByType<QuantTypes>(x.dtype(), "X", [&]<typename TX>() {
        if (two_d && !packed_filters_.empty()) {
          RunChannelsLast<TX, Q>(p, x.Data<TX>(), x_zp[0], packed_filters_, requant,
                                 y->MutableData<Q>(), layouts, pool);
          return Status::OK();
        }
        if (depthwise) {
          if (!depthwise_weights_.halves.empty()) {
            RunDepthwise<TX, Q>(p, x.Data<TX>(), x_zp[0], depthwise_weights_, requant,
                                y->MutableData<Q>(), layouts, pool,
                                constant_bias_ ? &depthwise_starts_ : nullptr);
            return Status::OK();
          }
          const DepthwiseFilters weights =
              DepthwiseWeights(w, w_zp, p.channels, p.geometry.KernelSize());
          RunDepthwise<TX, Q>(p, x.Data<TX>(), x_zp[0], weights, requant, y->MutableData<Q>(),
                              layouts, pool, nullptr);
          return Status::OK();
        }
        // The general path works channels-first: channels-last operands are transposed.
        const Tensor* x_first = &x;
        Tensor x_transposed;
        std::vector<Q> y_transposed;
        Q* out = y->MutableData<Q>();
        const int64_t in_spatial = p.geometry.InputSize();
        if (channels_last_) {
          ORT_ASSIGN_OR_RETURN(x_transposed, Tensor::Allocate(x.dtype(), x_shape));
          MoveChannels(x.Data<TX>(), p.batch, p.channels, in_spatial, true,
                       x_transposed.MutableData<TX>(), pool);
          x_first = &x_transposed;
          y_transposed.resize(static_cast<size_t>(y->NumElements()));
          out = y_transposed.data();
        }
        std::vector<int32_t> sums(static_cast<size_t>(y->NumElements()));
        ORT_RETURN_IF_ERROR(IntegerConv(context, *x_first, in[2], w, in[5], p, sums.data()));
        const int64_t out_size = p.geometry.OutputSize();
        for (int64_t row = 0; row < p.batch * filters; ++row) {
          const int64_t f = row % filters;
          int32_t* row_sums = sums.data() + row * out_size;
          if (requant.bias != nullptr) {
            const auto shift = static_cast<uint32_t>(requant.bias[f]);
            for (int64_t i = 0; i < out_size; ++i) {
              row_sums[i] = static_cast<int32_t>(static_cast<uint32_t>(row_sums[i]) + shift);
            }
          }
          RequantizeRow<Q>(row_sums, out_size, &requant.multipliers[f], false, requant.zero_point,
                           out + row * out_size);
        }
        if (channels_last_) {
          MoveChannels(out, p.batch, filters, out_size, false, y->MutableData<Q>(), pool);
        }
        return Status::OK();
      });
    });
  }

 private:
  WindowAttributes attributes_;
  bool channels_last_ = false;
  PackedGroupFilters packed_filters_;
  DepthwiseFilters depthwise_weights_;
  bool constant_bias_ = false;
  DepthwiseStartsCache depthwise_starts_;
};

}  // namespace

void RegisterQLinearConvKernels(KernelRegistry& registry) {
  const auto types = QuantTypes::DataTypes();
  registry.Add<QLinearConv>(KernelDef("QLinearConv").Versions(10).Input(0, types).Input(3, types));
  registry.Add<QLinearConv>(
      KernelDef("QLinearConv", std::string(kMsDomain)).Versions(1).Input(0, types).Input(3, types));
}

}  // namespace ort
