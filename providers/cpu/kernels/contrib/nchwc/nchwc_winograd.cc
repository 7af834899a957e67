#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd.h"

#include <algorithm>
#include <vector>

#include "providers/cpu/kernels/common/thread_scratch.h"

namespace ort {
namespace {

// G of F(4x4, 3x3), matching the B^T and A^T of nchwc_winograd_kernel.inc.
constexpr double kG[6][3] = {{1.0 / 2, 0, 0},
                             {1.0 / 6, 1.0 / 6, 1.0 / 6},
                             {1.0 / 6, -1.0 / 6, 1.0 / 6},
                             {2.0 / 15, 1.0 / 15, 1.0 / 30},
                             {1.0 / 30, -1.0 / 15, 2.0 / 15},
                             {0, 0, 1.0 / 2}};

// The time Winograd saves grows with its tiles, the memory its transform holds with the filters
// (four times theirs). Transforms beyond this size take as many tiles as those made for symbolic
// shapes (kDynamicWinogradMinTiles): R(2+1)-D's 256 -> 576 layers over 2 frames of 14x14 (32
// tiles) saved 3% of its latency with 59 MB of transforms, which put its resident memory above
// ORT's; FCN's 2048 -> 512 head over 28x28 (49 tiles) runs 2.3x faster.
constexpr int64_t kLargeTransformBytes = 16 << 20;
constexpr int64_t kLargeTransformMinTiles = 48;

// Tiles per task of the pointwise products: enough to reuse each filter load, few enough that
// small images still split across threads.
constexpr int64_t kTilesPerTask = 96;

// Transformed inputs and products of a chunk of tiles should stay in L2 between the phases.
constexpr int64_t kChunkBytes = 384 * 1024;
// Transformed filters beyond this are read from L3, once per chunk.
constexpr int64_t kFiltersInL2Bytes = 256 * 1024;

// When no chunk fits L2, a chunk's transforms stream through L3 instead, up to this size or the
// filters' transform, whichever is larger: a chunk of every tile of a large batch held R(2+1)-D's
// 16 frames of 56x56 in a 94 MB scratch that stayed resident, while chunks of 8 MB would read
// FCN's 151 MB of head filters again for every 18 tiles.
constexpr int64_t kStreamedChunkBytes = 8 << 20;

// Tiles per chunk: as many as fit kChunkBytes, but enough that re-reading filters from L3 for
// each chunk costs less than spilling the chunk's transforms would; when no chunk size satisfies
// both, as many as stream through L3 (kStreamedChunkBytes) with the filters read at most as many
// bytes as the chunks' transforms.
int64_t ChunkTiles(const NchwcConvArgs& args, int64_t block, int64_t tiles) {
  const int64_t channels = args.in_blocks * block, filters = args.out_blocks * block;
  const int64_t tile_bytes = kWinogradPoints * (channels + filters) * 4;
  const int64_t fitting = kChunkBytes / tile_bytes;
  const int64_t filter_bytes = kWinogradPoints * channels * filters * 4;
  const int64_t amortizing =
      filter_bytes <= kFiltersInL2Bytes ? 0 : channels * filters / (2 * (channels + filters));
  if (fitting < std::max<int64_t>(amortizing, 12)) {
    const int64_t streamed = std::max(kStreamedChunkBytes, filter_bytes) / tile_bytes;
    return std::min(tiles, std::max<int64_t>(streamed / 6 * 6, 6));
  }
  return std::min(tiles, fitting / 6 * 6);
}

// Runs tiles [t0, t1) (numbered image by image, row by row) through the three phases, each
// parallel on `pool` (null: inline). `v` and `m` hold the chunk's transforms.
void RunChunk(const NchwcConvKernels& kernels, const NchwcConvArgs& args,
              const NchwcWinogradFilters& filters, const FusedActivation* activation, int64_t t0,
              int64_t t1, float* v, float* m, ThreadPool* pool) {
  const int64_t block = kernels.block;
  const int64_t tiles_h = (args.out_h + 3) / 4, tiles_w = (args.out_w + 3) / 4;
  const int64_t count = t1 - t0;
  // Row segments of the chunk: (image, tile row, first column, end column, first chunk tile).
  struct Segment {
    int64_t n, ty, tx_begin, tx_end, first;
  };
  std::vector<Segment> segments;
  for (int64_t t = t0; t < t1;) {
    const int64_t row = t / tiles_w, tx = t % tiles_w;
    const int64_t end = std::min(t1, (row + 1) * tiles_w);
    segments.push_back({row / tiles_h, row % tiles_h, tx, tx + end - t, t - t0});
    t = end;
  }
  const auto segment_count = static_cast<int64_t>(segments.size());
  ThreadPool::TryParallelFor(
      pool, segment_count * args.in_blocks,
      static_cast<double>(tiles_w * kWinogradPoints * block * 8), [&](int64_t begin, int64_t end) {
        for (int64_t task = begin; task < end; ++task) {
          const Segment& s = segments[static_cast<size_t>(task / args.in_blocks)];
          kernels.winograd_input_row(args, s.n, task % args.in_blocks, s.ty, s.tx_begin, s.tx_end,
                                     v, s.first, count);
        }
      });

  // Each point's products form a pointwise convolution over a one-row image of the chunk's tiles.
  NchwcConvArgs point;
  point.in_blocks = args.in_blocks;
  point.in_block = block;
  point.out_blocks = args.out_blocks;
  point.in_h = point.out_h = 1;
  point.in_w = point.out_w = count;
  point.k_h = point.k_w = 1;
  const int64_t column_tasks = (count + kTilesPerTask - 1) / kTilesPerTask;
  const int64_t columns = (count + column_tasks - 1) / column_tasks;
  const int64_t per_task = NchwcFilterBlocksPerCall(kernels, point);
  const int64_t block_groups = NchwcFilterBlockGroups(kernels, args.out_blocks, per_task);
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
          at.y = m + xi * args.out_blocks * count * block;
          for (int64_t part = 0; part < args.in_blocks; part += filters.part_blocks()) {
            at.in_blocks = std::min(filters.part_blocks(), args.in_blocks - part);
            at.x = v + (xi * args.in_blocks + part) * count * block;
            at.w = filters.data() + xi * point_filters + part * filters.filters() * block;
            at.sum = part == 0 ? nullptr : at.y;  // read and written element by element
            kernels.conv_row(
                at, 0, ob,
                NchwcFilterBlocksOfGroup(kernels, args.out_blocks, per_task, ob / per_task), 0,
                column_begin, std::min(count, column_begin + columns), nullptr);
          }
        }
      });

  const int64_t row_floats = args.out_w * block;
  ThreadPool::TryParallelFor(
      pool, segment_count * args.out_blocks,
      static_cast<double>(tiles_w * kWinogradPoints * block * 6), [&](int64_t begin, int64_t end) {
        for (int64_t task = begin; task < end; ++task) {
          const Segment& s = segments[static_cast<size_t>(task / args.out_blocks)];
          const int64_t ob = task % args.out_blocks;
          kernels.winograd_output_row(args, s.n, ob, s.ty, s.tx_begin, s.tx_end, m, s.first, count);
          if (activation == nullptr) continue;
          const int64_t rows = std::min<int64_t>(4, args.out_h - s.ty * 4);
          const int64_t column = s.tx_begin * 4;
          const int64_t width = std::min(args.out_w, s.tx_end * 4) - column;
          float* y = args.y + ((s.n * args.out_blocks + ob) * args.out_h + s.ty * 4) * row_floats;
          for (int64_t r = 0; r < rows; ++r) {
            activation->Apply(y + r * row_floats + column * block, width * block);
          }
        }
      });
}

// Scratch of the calling thread, grown to `floats`.
float* ThreadScratch(int64_t floats) {
  thread_local AlignedScratch<float> scratch;
  return scratch.Get(static_cast<size_t>(floats));
}

}  // namespace

NchwcWinogradFilters::NchwcWinogradFilters(const float* w, int64_t filters, int64_t channels,
                                           int64_t block)
    : filters_(filters),
      channels_(channels),
      part_blocks_(std::max<int64_t>(1, kWinogradChannelsPerSum / block)),
      u_(kWinogradPoints * filters * channels) {
  // U = G g G^T in two passes of three terms, T = G g then U = T G^T, each a loop over the
  // B x B channel pairs of a filter block (contiguous in OIHWBiBo) that the compiler vectorizes:
  // resnet-sized layers transform at session start, and a UNet's 35 MB of 3x3 filters took a
  // third of its start one point and tap at a time in double.
  float g_coefficients[6][3];
  for (int i = 0; i < 6; ++i) {
    for (int k = 0; k < 3; ++k) g_coefficients[i][k] = static_cast<float>(kG[i][k]);
  }
  const int64_t out_blocks = filters / block, in_blocks = channels / block;
  const int64_t pairs = block * block, point_size = filters * channels;
  std::vector<float> rows(static_cast<size_t>(18 * pairs));
  for (int64_t ob = 0; ob < out_blocks; ++ob) {
    for (int64_t ib = 0; ib < in_blocks; ++ib) {
      const float* g = w + (ob * in_blocks + ib) * pairs * 9;
      const int64_t part_begin = ib / part_blocks_ * part_blocks_;
      const int64_t part_size = std::min(part_blocks_, in_blocks - part_begin);
      const int64_t offset =
          out_blocks * part_begin * pairs + (ob * part_size + ib - part_begin) * pairs;
      for (int i = 0; i < 6; ++i) {
        const float c0 = g_coefficients[i][0], c1 = g_coefficients[i][1], c2 = g_coefficients[i][2];
        for (int l = 0; l < 3; ++l) {
          const float* tap0 = g + l * pairs;
          const float* tap1 = g + (3 + l) * pairs;
          const float* tap2 = g + (6 + l) * pairs;
          float* t = rows.data() + (i * 3 + l) * pairs;
          for (int64_t pair = 0; pair < pairs; ++pair) {
            t[pair] = c0 * tap0[pair] + c1 * tap1[pair] + c2 * tap2[pair];
          }
        }
      }
      for (int i = 0; i < 6; ++i) {
        const float* t0 = rows.data() + i * 3 * pairs;
        const float* t1 = t0 + pairs;
        const float* t2 = t1 + pairs;
        for (int j = 0; j < 6; ++j) {
          const float c0 = g_coefficients[j][0], c1 = g_coefficients[j][1],
                      c2 = g_coefficients[j][2];
          float* u = u_.data() + (i * 6 + j) * point_size + offset;
          for (int64_t pair = 0; pair < pairs; ++pair) {
            u[pair] = c0 * t0[pair] + c1 * t1[pair] + c2 * t2[pair];
          }
        }
      }
    }
  }
}

bool WinogradPays(const NchwcConvKernels& kernels, const NchwcConvArgs& args, int64_t batch) {
  const int64_t tiles = batch * ((args.out_h + 3) / 4) * ((args.out_w + 3) / 4);
  const int64_t transform_bytes = kWinogradPoints * args.in_blocks * args.in_block *
                                  args.out_blocks * args.in_block * int64_t{sizeof(float)};
  return tiles >= (transform_bytes > kLargeTransformBytes ? kLargeTransformMinTiles
                                                          : kernels.winograd_min_tiles);
}

void RunNchwcWinograd(const NchwcConvKernels& kernels, const NchwcConvArgs& args, int64_t batch,
                      const NchwcWinogradFilters& filters, const FusedActivation* activation,
                      ThreadPool* pool) {
  const int64_t block = kernels.block;
  const int64_t tiles = batch * ((args.out_h + 3) / 4) * ((args.out_w + 3) / 4);
  const int64_t chunk = ChunkTiles(args, block, tiles);
  const int64_t chunks = (tiles + chunk - 1) / chunk;
  const int64_t in_floats = kWinogradPoints * args.in_blocks * chunk * block;
  const int64_t chunk_floats = in_floats + kWinogradPoints * args.out_blocks * chunk * block;
  const int64_t threads = pool == nullptr ? 1 : pool->DegreeOfParallelism();
  const auto run = [&](int64_t index, ThreadPool* inner) {
    float* v = ThreadScratch(chunk_floats);
    RunChunk(kernels, args, filters, activation, index * chunk,
             std::min(tiles, (index + 1) * chunk), v, v + in_floats, inner);
  };
  // Enough chunks to share out whole; otherwise every phase of each chunk is shared.
  if (chunks >= 2 * threads) {
    const double cost = 2.0 * static_cast<double>(kWinogradPoints * chunk * args.in_blocks *
                                                  args.out_blocks * block * block);
    ThreadPool::TryParallelFor(pool, chunks, cost, [&](int64_t begin, int64_t end) {
      for (int64_t index = begin; index < end; ++index) run(index, nullptr);
    });
    return;
  }
  for (int64_t index = 0; index < chunks; ++index) run(index, pool);
}

}  // namespace ort
