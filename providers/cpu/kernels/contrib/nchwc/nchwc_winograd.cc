#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd.h"

#include <algorithm>

namespace ort {
namespace {

// G of F(4x4, 3x3), matching the B^T and A^T of nchwc_winograd_kernel.inc.
constexpr double kG[6][3] = {{1.0 / 4, 0, 0},
                             {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                             {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                             {1.0 / 24, 1.0 / 12, 1.0 / 6},
                             {1.0 / 24, -1.0 / 12, 1.0 / 6},
                             {0, 0, 1}};

// Tiles per task of the pointwise products: enough to reuse each filter load, few enough that
// small images still split across threads.
constexpr int64_t kTilesPerTask = 96;

}  // namespace

NchwcWinogradFilters::NchwcWinogradFilters(const float* w, int64_t filters, int64_t channels,
                                           int64_t block)
    : filters_(filters), channels_(channels) {
  // U[i][j] = sum over taps (k, l) of G[i][k] G[j][l] g[k][l]: one coefficient per point and tap,
  // applied to all B x B channel pairs of a filter block at once (contiguous in OIHWBiBo).
  double coefficients[kWinogradPoints][9];
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) {
      for (int k = 0; k < 3; ++k) {
        for (int l = 0; l < 3; ++l) coefficients[i * 6 + j][k * 3 + l] = kG[i][k] * kG[j][l];
      }
    }
  }
  const int64_t out_blocks = filters / block, in_blocks = channels / block;
  const int64_t pairs = block * block, point_size = filters * channels;
  u_.resize(static_cast<size_t>(kWinogradPoints * point_size));
  std::vector<double> sums(static_cast<size_t>(pairs));
  for (int64_t ob = 0; ob < out_blocks; ++ob) {
    for (int64_t ib = 0; ib < in_blocks; ++ib) {
      const int64_t offset = (ob * in_blocks + ib) * pairs;
      const float* g = w + offset * 9;
      for (int64_t point = 0; point < kWinogradPoints; ++point) {
        std::fill(sums.begin(), sums.end(), 0.0);
        for (int tap = 0; tap < 9; ++tap) {
          const double c = coefficients[point][tap];
          if (c == 0.0) continue;
          const float* tap_values = g + tap * pairs;
          for (int64_t pair = 0; pair < pairs; ++pair) sums[pair] += c * tap_values[pair];
        }
        float* u = u_.data() + point * point_size + offset;
        for (int64_t pair = 0; pair < pairs; ++pair) u[pair] = static_cast<float>(sums[pair]);
      }
    }
  }
}

bool WinogradPays(const NchwcConvArgs& args, int64_t batch) {
  const int64_t tiles = batch * ((args.out_h + 3) / 4) * ((args.out_w + 3) / 4);
  return tiles >= 16;
}

int64_t NchwcWinogradScratchFloats(const NchwcConvArgs& args, int64_t batch, int64_t block) {
  const int64_t tiles = batch * ((args.out_h + 3) / 4) * ((args.out_w + 3) / 4);
  return kWinogradPoints * (args.in_blocks + args.out_blocks) * tiles * block;
}

void RunNchwcWinograd(const NchwcConvKernels& kernels, const NchwcConvArgs& args, int64_t batch,
                      const NchwcWinogradFilters& filters, const FusedActivation* activation,
                      float* scratch, ThreadPool* pool) {
  const int64_t block = kernels.block;
  const int64_t tiles_h = (args.out_h + 3) / 4, tiles_w = (args.out_w + 3) / 4;
  const int64_t tiles = batch * tiles_h * tiles_w;
  float* v = scratch;
  float* m = scratch + kWinogradPoints * args.in_blocks * tiles * block;

  const int64_t tile_rows = batch * tiles_h;
  ThreadPool::TryParallelFor(
      pool, tile_rows * args.in_blocks, static_cast<double>(tiles_w * kWinogradPoints * block * 8),
      [&](int64_t begin, int64_t end) {
        for (int64_t task = begin; task < end; ++task) {
          const int64_t row = task / args.in_blocks;
          kernels.winograd_input_row(args, row / tiles_h, task % args.in_blocks, row % tiles_h,
                                     row * tiles_w, tiles, v);
        }
      });

  // Each point's products form a pointwise convolution over a one-row image of all tiles.
  NchwcConvArgs point;
  point.in_blocks = args.in_blocks;
  point.in_block = block;
  point.out_blocks = args.out_blocks;
  point.in_h = point.out_h = 1;
  point.in_w = point.out_w = tiles;
  point.k_h = point.k_w = 1;
  const int64_t column_tasks = (tiles + kTilesPerTask - 1) / kTilesPerTask;
  const int64_t columns = (tiles + column_tasks - 1) / column_tasks;
  const int64_t per_task = kernels.max_filter_blocks;
  const int64_t block_groups = (args.out_blocks + per_task - 1) / per_task;
  const int64_t point_filters = filters.filters() * filters.channels();
  ThreadPool::TryParallelFor(
      pool, kWinogradPoints * block_groups * column_tasks,
      2.0 * static_cast<double>(per_task * block * columns * args.in_blocks * block),
      [&](int64_t begin, int64_t end) {
        for (int64_t task = begin; task < end; ++task) {
          const int64_t xi = task / (block_groups * column_tasks);
          const int64_t ob = task / column_tasks % block_groups * per_task;
          const int64_t column_begin = task % column_tasks * columns;
          NchwcConvArgs at = point;
          at.x = v + xi * args.in_blocks * tiles * block;
          at.w = filters.data() + xi * point_filters;
          at.y = m + xi * args.out_blocks * tiles * block;
          kernels.conv_row(at, 0, ob, std::min(per_task, args.out_blocks - ob), 0, column_begin,
                           std::min(tiles, column_begin + columns), nullptr);
        }
      });

  const int64_t row_floats = args.out_w * block;
  ThreadPool::TryParallelFor(
      pool, tile_rows * args.out_blocks, static_cast<double>(tiles_w * kWinogradPoints * block * 6),
      [&](int64_t begin, int64_t end) {
        for (int64_t task = begin; task < end; ++task) {
          const int64_t row = task / args.out_blocks, ob = task % args.out_blocks;
          const int64_t n = row / tiles_h, ty = row % tiles_h;
          kernels.winograd_output_row(args, n, ob, ty, row * tiles_w, tiles, m);
          if (activation == nullptr) continue;
          const int64_t out_rows = std::min<int64_t>(4, args.out_h - ty * 4);
          activation->Apply(
              args.y + ((n * args.out_blocks + ob) * args.out_h + ty * 4) * row_floats,
              out_rows * row_floats);
        }
      });
}

}  // namespace ort
