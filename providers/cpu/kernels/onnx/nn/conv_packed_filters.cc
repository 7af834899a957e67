#include "providers/cpu/kernels/onnx/nn/conv_packed_filters.h"

#include <algorithm>

#include "providers/cpu/kernels/common/gemm_pack.h"
#include "providers/cpu/kernels/common/im2col.h"
#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/common/sgemm_plan.h"
#include "providers/cpu/kernels/common/thread_scratch.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {
namespace {

using gemm_detail::GemmPlan;
using gemm_detail::SgemmPlan;

// Output positions of an image below which the transposed form runs instead: fewer than this
// many B panels of 48 leave too much of the last one padding (r2plus1d_18's 7x7 frames).
constexpr int64_t kMinPanelsPerImage = 4;

// Tasks per thread the work is cut into when the images' column blocks alone are too few, so
// that a thread slowed by its neighbour leaves little behind.
constexpr int64_t kTasksPerThread = 4;

/// Output positions [o, o + n) of one run of the column matrix (ForEachRun's run: `inside`,
/// image[image_offset + o * stride] for o in [first, last), padding elsewhere) into `out`.
inline void CopyRunPiece(const float* image, bool inside, int64_t image_offset, int64_t first,
                         int64_t last, int64_t stride, int64_t o, int64_t n, float* out) {
  const int64_t begin = inside ? std::clamp(first, o, o + n) : o + n;
  const int64_t end = inside ? std::clamp(last, begin, o + n) : o + n;
  for (int64_t i = o; i < begin; ++i) out[i - o] = 0.0f;
  const float* in = image + image_offset;
  if (stride == 1) {
    for (int64_t i = begin; i < end; ++i) out[i - o] = in[i];
  } else if (stride == 2) {
    // A constant stride lets the compiler gather with permutes (a strided stem took 1.3x ORT).
    for (int64_t i = begin; i < end; ++i) out[i - o] = in[2 * i];
  } else {
    for (int64_t i = begin; i < end; ++i) out[i - o] = image[image_offset + i * stride];
  }
  for (int64_t i = end; i < o + n; ++i) out[i - o] = 0.0f;
}

/// Rows [p0, p0 + depth) x output positions [c0, c1) of the column matrix of `image` (Im2Col's
/// layout) as B panels of nr positions stored row by row, positions past c1 zero: im2col and
/// packing in one pass, so the column matrix is never written out whole.
void Im2ColPanels(const ConvGeometryView& g, const float* image, int64_t p0, int64_t depth,
                  int64_t c0, int64_t c1, int64_t nr, float* packed) {
  const int64_t width = g.output[g.output.size() - 1];
  const int64_t run_begin = c0 / width;
  const int64_t run_end = (c1 + width - 1) / width;
  const int64_t cols = c1 - c0;
  const int64_t panel_floats = depth * nr;
  const int64_t kernel_size = im2col_internal::Product(g.kernel);
  const int64_t input_size = im2col_internal::Product(g.input);
  for (int64_t row = p0; row < p0 + depth; ++row) {
    float* row_out = packed + (row - p0) * nr;
    const int64_t row_start = row * (run_end - run_begin) * width;
    // The first tap of a channel brings the next channel's rows towards the cache: each channel
    // is read from memory once per block of columns, by lines too short for the prefetchers.
    const bool prefetch = row % kernel_size == 0 && row / kernel_size + 1 < g.channels;
    im2col_internal::ForEachRun(
        g, row, run_begin, run_end,
        [&](bool inside, int64_t image_offset, int64_t col_offset, int64_t first, int64_t last,
            int64_t run_width, int64_t stride) {
          if (prefetch && inside) {
            const float* next = image + image_offset + input_size;
            for (int64_t i = first * stride; i < last * stride; i += 16)
              __builtin_prefetch(next + i, 0, 3);
          }
          const int64_t run_column = run_begin * width + (col_offset - row_start);
          int64_t o = std::max<int64_t>(0, c0 - run_column);
          const int64_t o_end = std::min(run_width, c1 - run_column);
          while (o < o_end) {
            const int64_t j = run_column + o - c0;
            const int64_t lane = j % nr;
            const int64_t n = std::min(nr - lane, o_end - o);
            CopyRunPiece(image, inside, image_offset, first, last, stride, o, n,
                         row_out + j / nr * panel_floats + lane);
            o += n;
          }
        });
    if (cols % nr != 0) {
      float* tail = row_out + cols / nr * panel_floats;
      for (int64_t j = cols % nr; j < nr; ++j) tail[j] = 0.0f;
    }
  }
}

const SgemmKernel& KernelForFilters(int64_t filters) {
  return BestIsaEntry(kSgemmKernels, [filters](const SgemmKernel& kernel) {
    return (filters + kernel.mr - 1) / kernel.mr * kernel.mr;
  });
}

}  // namespace

PackedConvFilters::PackedConvFilters(int64_t filters, int64_t depth, const float* w)
    : kernel_(&KernelForFilters(filters)),
      filters_(filters),
      depth_(depth),
      padded_filters_((filters + kernel_->mr - 1) / kernel_->mr * kernel_->mr),
      depth_block_(SgemmPlan(*kernel_).kc),
      storage_(padded_filters_ * depth) {
  data_ = storage_.data();
  const auto view = gemm_detail::MakeView(w, depth, false);
  for (int64_t p0 = 0; p0 < depth; p0 += depth_block_) {
    gemm_detail::PackA(view, kernel_->mr, 0, filters, p0, std::min(depth_block_, depth - p0), 1.0f,
                       data_ + p0 * padded_filters_);
  }
}

const float* PackedConvFilters::Block(int64_t p0, int64_t m0) const {
  return data_ + p0 * padded_filters_ + m0 * std::min(depth_block_, depth_ - p0);
}

bool PackedFiltersPay(const ConvProblem& p) {
  return p.geometry.OutputSize() >= kMinPanelsPerImage * KernelForFilters(p.filters).nr;
}

void RunPackedFiltersConv(const ConvProblem& p, const float* x, const PackedConvFilters& filters,
                          const float* bias, const float* sum, const FusedActivation& activation,
                          float* y, ThreadPool* pool) {
  const WindowGeometry& g = p.geometry;
  const GemmPlan<float>& plan = SgemmPlan(filters.kernel());
  const int64_t mr = plan.mr, nr = plan.nr;
  const int64_t depth = filters.depth();
  const int64_t kc = filters.depth_block();
  const int64_t nc = plan.nc;
  const int64_t in_size = g.InputSize();
  const int64_t out_size = g.OutputSize();
  const bool pointwise = g.IsPointwise();
  const ConvGeometryView view{p.channels,  g.input, g.kernel, g.strides,
                              g.dilations, g.pads,  g.output};
  const int64_t column_blocks = (out_size + nc - 1) / nc;
  const int64_t items = p.batch * column_blocks;
  const int64_t threads = pool == nullptr ? 1 : pool->DegreeOfParallelism();
  // Too few column blocks for the threads: each also takes a share of the filters, packing its
  // columns again (depth x columns, against a share of filters x depth x columns multiply-adds).
  const int64_t filter_panels = (p.filters + mr - 1) / mr;
  int64_t filter_parts = 1;
  if (threads > 1 && items < kTasksPerThread * threads) {
    filter_parts = std::min(filter_panels, (kTasksPerThread * threads + items - 1) / items);
  }
  const int64_t panels_per_part = (filter_panels + filter_parts - 1) / filter_parts;
  filter_parts = (filter_panels + panels_per_part - 1) / panels_per_part;
  // Z in Y's own buffer is added by the first depth block (beta 1) before Y is overwritten.
  const bool sum_in_y = sum != nullptr && sum == y;
  const size_t packed_floats = static_cast<size_t>(std::min(kc, depth) * nc);
  const auto run_task = [&](int64_t task, float* packed) {
    const int64_t part = task % filter_parts;
    const int64_t item = task / filter_parts;
    const int64_t n = item / column_blocks;
    const int64_t c0 = item % column_blocks * nc;
    const int64_t cols = std::min(nc, out_size - c0);
    const int64_t f_begin = part * panels_per_part * mr;
    const int64_t f_end = std::min(p.filters, f_begin + panels_per_part * mr);
    const float* image = x + n * p.channels * in_size;
    float* out = y + n * p.filters * out_size + c0;
    for (int64_t p0 = 0; p0 < depth; p0 += kc) {
      const int64_t block_depth = std::min(kc, depth - p0);
      Vectorized([&] {
        if (pointwise) {
          gemm_detail::PackB(gemm_detail::MakeView(image, out_size, false), nr, p0, block_depth, c0,
                             cols, packed);
        } else {
          Im2ColPanels(view, image, p0, block_depth, c0, c0 + cols, nr, packed);
        }
      });
      for (int64_t m0 = f_begin; m0 < f_end; m0 += plan.mc) {
        plan.block(std::min(plan.mc, f_end - m0), cols, block_depth, filters.Block(p0, m0), 0,
                   packed, sum_in_y ? 1.0f : 0.0f, p0 == 0, out + m0 * out_size, out_size);
      }
    }
    const float* z = sum != nullptr && !sum_in_y ? sum + n * p.filters * out_size + c0 : nullptr;
    for (int64_t f = f_begin; f < f_end; ++f) {
      float* row = out + f * out_size;
      const float initial = bias != nullptr ? bias[f] : 0.0f;
      Vectorized([&] {
        if (z != nullptr) {
          const float* z_row = z + f * out_size;
          for (int64_t i = 0; i < cols; ++i) row[i] += initial + z_row[i];
        } else if (bias != nullptr) {
          for (int64_t i = 0; i < cols; ++i) row[i] += initial;
        }
      });
      activation.Apply(row, cols);
    }
  };
  const int64_t tasks = items * filter_parts;
  const double cost = 2.0 * static_cast<double>(panels_per_part * mr * depth * nc);
  ThreadPool::TryParallelFor(pool, tasks, cost, [&](int64_t begin, int64_t end) {
    // Kept per thread across runs: a fresh block of megabytes is fresh pages on every run.
    thread_local AlignedScratch<float> scratch;
    float* packed = scratch.Get(packed_floats);
    for (int64_t task = begin; task < end; ++task) run_task(task, packed);
  });
}

}  // namespace ort
