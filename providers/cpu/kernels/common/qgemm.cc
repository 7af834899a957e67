#include "providers/cpu/kernels/common/qgemm.h"

#include <cstring>
#include <type_traits>

#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/common/requantize.h"
#include "providers/cpu/kernels/common/thread_scratch.h"

namespace ort {
namespace {

// Depth groups per block: 1 KB of every packed row of A, so a kernel's 6-row tile of A stays in
// L1 while it sweeps a 64-column panel of B (64 KB) from L2.
constexpr int64_t kBlockGroups = 128;
// Register tiles per task: rows of A packed once per task and reused across its columns.
constexpr int64_t kTaskRowTiles = 8;
constexpr int64_t kTaskPanels = 4;
constexpr int64_t kTasksPerThread = 4;

// The kernels multiply unsigned A by signed B: int8 A moves up by 128 and uint8 B down by 128,
// and the zero points move with them, which leaves every difference (A - a_zero) unchanged.
template <typename T>
constexpr int32_t kUnsignedShift = std::is_signed_v<T> ? 128 : 0;
template <typename T>
constexpr int32_t kSignedShift = std::is_signed_v<T> ? 0 : 128;

struct Layout {
  int64_t steps;     // depth steps per group
  int64_t groups;    // groups over the whole depth
  int64_t padded_n;  // columns rounded up to the kernel's vector width

  Layout(const QgemmKernel& kernel, int64_t k, int64_t n)
      : steps(kernel.wide ? 2 : 4),
        groups(((k + steps - 1) / steps + kernel.GroupMultiple() - 1) / kernel.GroupMultiple() *
               kernel.GroupMultiple()),
        padded_n((n + kernel.ColumnStep() - 1) / kernel.ColumnStep() * kernel.ColumnStep()) {}

  int64_t BlockGroups(int64_t group0) const { return std::min(kBlockGroups, groups - group0); }
  // Depth block starting at `group0`: the panels of every column, each `block_groups` rows.
  int64_t BlockOffset(int64_t group0) const { return group0 * padded_n * kQgemmGroupBytes; }
  int64_t Bytes() const { return groups * padded_n * kQgemmGroupBytes; }
};

// B's element (depth p, column j) lies at b[p * depth_stride + j * column_stride]: a row-major
// B has strides (ldb, 1), a transposed one (its columns stored as rows, as filters are) (1, ldb).
template <typename TB>
void PackB(const QgemmKernel& kernel, const Layout& layout, int64_t k, int64_t n, const TB* b,
           int64_t depth_stride, int64_t column_stride, uint8_t* dest, int32_t* column_sums) {
  const int64_t nr = kernel.nr;
  for (int64_t group0 = 0; group0 < layout.groups; group0 += kBlockGroups) {
    const int64_t block_groups = layout.BlockGroups(group0);
    uint8_t* block = dest + layout.BlockOffset(group0);
    for (int64_t col0 = 0; col0 < layout.padded_n; col0 += nr) {
      const int64_t width = std::min(nr, layout.padded_n - col0);
      const int64_t real_width = std::max<int64_t>(0, std::min(width, n - col0));
      uint8_t* panel = block + col0 * block_groups * kQgemmGroupBytes;
      for (int64_t g = 0; g < block_groups; ++g) {
        uint8_t* row = panel + g * width * kQgemmGroupBytes;
        const int64_t depth0 = (group0 + g) * layout.steps;
        const int64_t steps = std::clamp<int64_t>(k - depth0, 0, layout.steps);
        std::fill(row, row + width * kQgemmGroupBytes, uint8_t{0});
        if (!kernel.wide && column_stride == 1 && steps == 4) {
          // Four rows of a row-major B, each column's bytes one 32-bit word: a loop the
          // compiler vectorizes (attention's per-call B was gathered byte by byte).
          const TB* rows = b + depth0 * depth_stride + col0;
          const auto byte = [&](int64_t s, int64_t j) {
            return static_cast<uint32_t>(static_cast<uint8_t>(
                static_cast<int32_t>(rows[s * depth_stride + j]) - kSignedShift<TB>));
          };
          for (int64_t j = 0; j < real_width; ++j) {
            const uint32_t word =
                byte(0, j) | byte(1, j) << 8 | byte(2, j) << 16 | byte(3, j) << 24;
            std::memcpy(row + j * kQgemmGroupBytes, &word, sizeof(word));
          }
          continue;
        }
        for (int64_t j = 0; j < real_width; ++j) {
          const TB* source = b + depth0 * depth_stride + (col0 + j) * column_stride;
          uint8_t* out = row + j * kQgemmGroupBytes;
          for (int64_t s = 0; s < steps; ++s) {
            const int32_t value = source[s * depth_stride] - kSignedShift<TB>;
            if (kernel.wide) {
              const auto wide = static_cast<int16_t>(value);
              std::memcpy(out + s * 2, &wide, 2);
            } else {
              out[s] = static_cast<uint8_t>(static_cast<int8_t>(value));
            }
          }
        }
      }
    }
  }
  if (column_stride == 1) {
    // Row by row: contiguous reads.
    std::fill(column_sums, column_sums + n, -static_cast<int32_t>(k) * kSignedShift<TB>);
    for (int64_t p = 0; p < k; ++p) {
      for (int64_t j = 0; j < n; ++j) column_sums[j] += b[p * depth_stride + j];
    }
    return;
  }
  for (int64_t j = 0; j < n; ++j) {
    int32_t sum = 0;
    for (int64_t p = 0; p < k; ++p) sum += b[p * depth_stride + j * column_stride];
    column_sums[j] = sum - static_cast<int32_t>(k) * kSignedShift<TB>;
  }
}

// Rows [row0, row0 + rows) of A as the kernel reads them, zero past the depth, and their sums.
template <typename TA>
void PackA(const QgemmKernel& kernel, const Layout& layout, int64_t k, const TA* a, int64_t lda,
           int64_t rows, uint8_t* dest, int64_t a_stride, int32_t* row_sums) {
  const int64_t padded_k = layout.groups * layout.steps;
  for (int64_t i = 0; i < rows; ++i) {
    const TA* source = a + i * lda;
    uint8_t* row = dest + i * a_stride;
    int32_t sum = 0;
    if (kernel.wide) {
      auto* wide = reinterpret_cast<int16_t*>(row);
      for (int64_t p = 0; p < k; ++p) {
        wide[p] = static_cast<int16_t>(source[p] + kUnsignedShift<TA>);
        sum += wide[p];
      }
      std::fill(wide + k, wide + padded_k, int16_t{0});
    } else {
      for (int64_t p = 0; p < k; ++p) {
        row[p] = static_cast<uint8_t>(source[p] + kUnsignedShift<TA>);
        sum += row[p];
      }
      std::fill(row + k, row + padded_k, uint8_t{0});
    }
    if (row_sums != nullptr) row_sums[i] = sum;
  }
}

// Turns raw products of shifted operands into (A - a_zero)(B - b_zero):
//   raw - b_zero[j] * rowsum(A)[i] - a_zero[i] * (colsum(B)[j] - k * b_zero[j])
// in wrapping unsigned arithmetic, exact modulo 2^32 as the result is defined.
void Correct(const QgemmPackedBView& b, int64_t rows, int64_t col0, int64_t cols,
             const int32_t* a_zero_points, const int32_t* row_sums, int32_t* c, int64_t ldc) {
  const auto k = static_cast<uint32_t>(b.k);
  for (int64_t i = 0; i < rows; ++i) {
    const auto a_zero = static_cast<uint32_t>(a_zero_points[i]);
    auto* out = reinterpret_cast<uint32_t*>(c + i * ldc);
    const auto* sums = reinterpret_cast<const uint32_t*>(b.column_sums + col0);
    if (b.zero_points == nullptr) {
      if (a_zero == 0) continue;
      for (int64_t j = 0; j < cols; ++j) out[j] -= a_zero * sums[j];
    } else {
      const auto row_sum = static_cast<uint32_t>(row_sums[i]);
      const auto* zeros = reinterpret_cast<const uint32_t*>(b.zero_points + col0);
      for (int64_t j = 0; j < cols; ++j) {
        out[j] -= zeros[j] * row_sum + a_zero * (sums[j] - k * zeros[j]);
      }
    }
  }
}

template <typename TB>
std::vector<int32_t> ShiftedZeroPoints(int64_t n, std::span<const int32_t> b_zero) {
  std::vector<int32_t> zeros(static_cast<size_t>(n));
  bool any = false;
  for (int64_t j = 0; j < n; ++j) {
    const int32_t zero = b_zero.empty() ? 0 : b_zero.size() == 1 ? b_zero[0] : b_zero[j];
    zeros[j] = zero - kSignedShift<TB>;
    any = any || zeros[j] != 0;
  }
  if (!any) zeros.clear();
  return zeros;
}

}  // namespace

bool QgemmKernelRunnable(const QgemmKernel& kernel) {
  if (!CpuHasIsa(kernel.isa)) return false;
  switch (kernel.extension) {
    case QgemmExtension::kNone:
      return true;
    case QgemmExtension::kVnni:
      return GetCpuFeatures().avx512_vnni;
    case QgemmExtension::kAvxVnni:
      return GetCpuFeatures().avx_vnni;
    case QgemmExtension::kAmxInt8:
      return GetCpuFeatures().amx_int8 && RequestAmxTileState();
  }
  return false;
}

const QgemmKernel& BestQgemmKernelFor(int64_t k, int64_t n) {
  constexpr int64_t kAmxMinDepth = 64;
  constexpr int64_t kAmxMinColumns = 64;
  // Per table entry, whether this CPU runs it within MaxCpuIsa(), decided once.
  static const std::vector<bool> allowed = [] {
    std::vector<bool> flags;
    for (const QgemmKernel& kernel : kQgemmKernels) {
      flags.push_back(kernel.isa <= MaxCpuIsa() && QgemmKernelRunnable(kernel));
    }
    return flags;
  }();
  for (size_t i = 0; i < std::size(kQgemmKernels); ++i) {
    const QgemmKernel& kernel = kQgemmKernels[i];
    if (!allowed[i]) continue;
    if (kernel.extension == QgemmExtension::kAmxInt8 && (k < kAmxMinDepth || n < kAmxMinColumns)) {
      continue;
    }
    return kernel;
  }
  return kQgemmKernels[std::size(kQgemmKernels) - 1];
}

template <typename TB>
PackedQgemmB::PackedQgemmB(const QgemmKernel& kernel, int64_t k, int64_t n, const TB* b,
                           int64_t ldb, std::span<const int32_t> b_zero, bool transposed)
    : storage_((Layout(kernel, k, n).Bytes() + 3) / 4) {
  const Layout layout(kernel, k, n);
  std::vector<int32_t> zeros = ShiftedZeroPoints<TB>(n, b_zero);
  sums_and_zero_points_.resize(static_cast<size_t>(n));
  auto* data = reinterpret_cast<uint8_t*>(storage_.data());
  PackB(kernel, layout, k, n, b, transposed ? 1 : ldb, transposed ? ldb : 1, data,
        sums_and_zero_points_.data());
  sums_and_zero_points_.insert(sums_and_zero_points_.end(), zeros.begin(), zeros.end());
  view_ = {&kernel,
           k,
           n,
           data,
           sums_and_zero_points_.data(),
           zeros.empty() ? nullptr : sums_and_zero_points_.data() + n};
}

std::unique_ptr<PackedQgemmB> PackConstantQgemmB(const KernelInfo& info, size_t b_index,
                                                 size_t zero_index, bool transposed) {
  const Tensor* b = info.ConstantInput(b_index);
  if (b == nullptr || b->shape().rank() != 2 || b->NumElements() == 0) return nullptr;
  if (b->dtype() != DataType::kInt8 && b->dtype() != DataType::kUint8) return nullptr;
  const int64_t k = b->shape()[transposed ? 1 : 0], n = b->shape()[transposed ? 0 : 1];
  const int64_t ldb = transposed ? k : n;
  std::vector<int32_t> zeros{0};
  if (info.node().HasInput(zero_index)) {
    const Tensor* zero = info.ConstantInput(zero_index);
    if (zero == nullptr || zero->dtype() != b->dtype()) return nullptr;
    if (zero->NumElements() != 1 && zero->NumElements() != n) return nullptr;
    zeros.resize(static_cast<size_t>(zero->NumElements()));
    for (size_t j = 0; j < zeros.size(); ++j) {
      zeros[j] = b->dtype() == DataType::kInt8 ? zero->Data<int8_t>()[j] : zero->Data<uint8_t>()[j];
    }
  }
  if (b->dtype() == DataType::kInt8) {
    return std::make_unique<PackedQgemmB>(BestQgemmKernelFor(k, n), k, n, b->Data<int8_t>(), ldb,
                                          zeros, transposed);
  }
  return std::make_unique<PackedQgemmB>(BestQgemmKernelFor(k, n), k, n, b->Data<uint8_t>(), ldb,
                                        zeros, transposed);
}

namespace {

// QGemmPacked, and with `requantized` QGemmPackedRequantized (then `c` is null and `done` empty).
template <typename TA>
void RunPacked(int64_t m, const TA* a, int64_t lda, std::span<const int32_t> a_zero,
               const QgemmPackedBView& b, int32_t* c, int64_t ldc, ThreadPool* pool,
               QgemmBlockDone done, const QgemmRequantizedOutput* requantized) {
  const int64_t n = b.n;
  if (m <= 0 || n <= 0) return;
  const int32_t* bias = requantized != nullptr ? requantized->bias : nullptr;
  if (requantized != nullptr) {
    // Blocks the kernel does not requantize itself are requantized here, the bias added unless
    // the column offsets hold it.
    done = [requantized, &bias](int64_t row0, int64_t rows, int64_t col0, int64_t cols,
                                int32_t* block, int64_t ld) {
      RequantizeBlockArgs args;
      args.sums = block;
      args.ldc = ld;
      args.rows = rows;
      args.cols = cols;
      args.bias = bias != nullptr ? bias + col0 : nullptr;
      args.multipliers = requantized->multipliers + col0;
      args.y_zero = requantized->zero_point;
      args.out = static_cast<uint8_t*>(requantized->out) + row0 * requantized->ldo + col0;
      args.ldo = requantized->ldo;
      if (requantized->is_signed) {
        RequantizeColumns<int8_t>(args);
      } else {
        RequantizeColumns<uint8_t>(args);
      }
    };
  }
  if (b.k == 0) {
    std::vector<int32_t> zeros;
    if (c == nullptr) {
      zeros.assign(static_cast<size_t>(m * n), 0);
      c = zeros.data();
      ldc = n;
    }
    for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0);
    if (done) done(0, m, 0, n, c, ldc);
    return;
  }
  const QgemmKernel& kernel = *b.kernel;
  const Layout layout(kernel, b.k, n);
  const int64_t a_stride = layout.groups * kQgemmGroupBytes;
  // Tasks of kTaskRowTiles x kTaskPanels tiles, smaller where that leaves the threads fewer than
  // kTasksPerThread each (a 14 x 14 map's product held two or three tasks of AMX tiles, so the
  // second thread idled): rows halved first, as each row block packs its A once.
  const int64_t row_tiles = (m + kernel.mr - 1) / kernel.mr;
  const int64_t panels = (n + kernel.nr - 1) / kernel.nr;
  const int64_t wanted_tasks = pool != nullptr && pool->DegreeOfParallelism() > 1
                                   ? kTasksPerThread * pool->DegreeOfParallelism()
                                   : 1;
  int64_t task_row_tiles = kTaskRowTiles, task_panels = kTaskPanels;
  const auto tasks = [&] {
    return (row_tiles + task_row_tiles - 1) / task_row_tiles *
           ((panels + task_panels - 1) / task_panels);
  };
  while (task_row_tiles > 1 && tasks() < wanted_tasks) task_row_tiles /= 2;
  while (task_panels > 1 && tasks() < wanted_tasks) task_panels /= 2;
  const int64_t row_block = kernel.mr * task_row_tiles;
  const int64_t col_block = kernel.nr * task_panels;
  const int64_t row_blocks = (m + row_block - 1) / row_block;
  const int64_t col_blocks = (n + col_block - 1) / col_block;
  std::vector<int32_t> a_zero_points(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) {
    const int32_t zero = a_zero.empty() ? 0 : a_zero.size() == 1 ? a_zero[0] : a_zero[i];
    a_zero_points[i] = zero + kUnsignedShift<TA>;
  }
  // With B's zero points zero and one zero point for A, the whole correction is a term per
  // column, -a_zero * colsum(B)[j], which the kernel adds as it stores.
  const bool one_a_zero = std::all_of(a_zero_points.begin(), a_zero_points.end(),
                                      [&](int32_t z) { return z == a_zero_points[0]; });
  const bool fold_correction = b.zero_points == nullptr && one_a_zero;
  std::vector<int32_t> column_offsets;
  if (fold_correction && (a_zero_points[0] != 0 || bias != nullptr)) {
    // A requantized product's bias joins the offsets: it is one more term per column.
    column_offsets.resize(static_cast<size_t>(n));
    const auto a_zero_value = static_cast<uint32_t>(a_zero_points[0]);
    for (int64_t j = 0; j < n; ++j) {
      const auto shift = static_cast<uint32_t>(bias != nullptr ? bias[j] : 0);
      column_offsets[j] =
          static_cast<int32_t>(shift - a_zero_value * static_cast<uint32_t>(b.column_sums[j]));
    }
    bias = nullptr;
  }
  const int32_t* offsets = column_offsets.empty() ? nullptr : column_offsets.data();
  // The kernel requantizes the last depth block from its registers where it can: the int32
  // product then never reaches memory.
  const bool kernel_requantizes = requantized != nullptr && kernel.requantizes && fold_correction;
  QgemmRequantization requantization;
  if (kernel_requantizes) {
    const int32_t low = requantized->is_signed ? std::numeric_limits<int8_t>::min() : 0;
    const int32_t high = requantized->is_signed ? std::numeric_limits<int8_t>::max() : 255;
    requantization.multipliers = requantized->multipliers;
    requantization.low = static_cast<float>(low - requantized->zero_point);
    requantization.high = static_cast<float>(high - requantized->zero_point);
    requantization.zero_point = requantized->zero_point;
    requantization.out = static_cast<uint8_t*>(requantized->out);
    requantization.ldo = requantized->ldo;
  }
  // Unsigned bytes whose depth fills whole groups are their own packed form: the kernel reads A
  // in place (a channels-last image, for a pointwise convolution) instead of a copy. Not for
  // AMX, whose tiles read whole 16-row blocks past the last row.
  const bool a_in_place = std::is_same_v<TA, uint8_t> && !kernel.wide &&
                          kernel.extension != QgemmExtension::kAmxInt8 &&
                          layout.groups * layout.steps == b.k && b.zero_points == nullptr;
  const double cost =
      2.0 * static_cast<double>(std::min(m, row_block) * std::min(n, col_block) * b.k);
  ThreadPool::TryParallelFor(pool, row_blocks * col_blocks, cost, [&](int64_t begin, int64_t end) {
    thread_local AlignedScratch<uint8_t> a_scratch;
    thread_local AlignedScratch<int32_t> block_scratch;
    thread_local std::vector<int32_t> row_sums;
    uint8_t* a_packed = a_scratch.Get(static_cast<size_t>(row_block * a_stride));
    int32_t* block_buffer =
        c == nullptr ? block_scratch.Get(static_cast<size_t>(row_block * col_block)) : nullptr;
    row_sums.resize(static_cast<size_t>(row_block));
    int64_t packed_rows = -1;
    for (int64_t task = begin; task < end; ++task) {
      const int64_t row_index = task / col_blocks;
      const int64_t row0 = row_index * row_block;
      const int64_t rows = std::min(row_block, m - row0);
      const int64_t col0 = (task % col_blocks) * col_block;
      const int64_t cols = std::min(col_block, n - col0);
      const uint8_t* a_block = a_packed;
      int64_t a_block_stride = a_stride;
      if (a_in_place) {
        a_block = reinterpret_cast<const uint8_t*>(a + row0 * lda);
        a_block_stride = lda;
      } else if (packed_rows != row_index) {
        PackA(kernel, layout, b.k, a + row0 * lda, lda, rows, a_packed, a_stride,
              b.zero_points != nullptr ? row_sums.data() : nullptr);
        packed_rows = row_index;
      }
      int32_t* c_block = c != nullptr ? c + row0 * ldc + col0 : block_buffer;
      const int64_t ld = c != nullptr ? ldc : col_block;
      QgemmRequantization block_requantization = requantization;
      block_requantization.multipliers += kernel_requantizes ? col0 : 0;
      block_requantization.out += kernel_requantizes ? row0 * requantization.ldo + col0 : 0;
      for (int64_t group0 = 0; group0 < layout.groups; group0 += kBlockGroups) {
        const int64_t block_groups = layout.BlockGroups(group0);
        const uint8_t* b_block =
            b.data + layout.BlockOffset(group0) + col0 * block_groups * kQgemmGroupBytes;
        const bool last = group0 + kBlockGroups >= layout.groups;
        kernel.block(rows, cols, block_groups, a_block + group0 * kQgemmGroupBytes, a_block_stride,
                     b_block, kernel.nr * block_groups * kQgemmGroupBytes, group0 == 0,
                     offsets != nullptr ? offsets + col0 : nullptr, c_block, ld,
                     kernel_requantizes && last ? &block_requantization : nullptr);
      }
      if (kernel_requantizes) continue;
      if (!fold_correction) {
        Vectorized([&] {
          Correct(b, rows, col0, cols, a_zero_points.data() + row0, row_sums.data(), c_block, ld);
        });
      }
      if (done) done(row0, rows, col0, cols, c_block, ld);
    }
  });
}

}  // namespace

template <typename TA>
void QGemmPacked(int64_t m, const TA* a, int64_t lda, std::span<const int32_t> a_zero,
                 const QgemmPackedBView& b, int32_t* c, int64_t ldc, ThreadPool* pool,
                 const QgemmBlockDone& done) {
  RunPacked(m, a, lda, a_zero, b, c, ldc, pool, done, nullptr);
}

template <typename TA>
void QGemmPackedRequantized(int64_t m, const TA* a, int64_t lda, std::span<const int32_t> a_zero,
                            const QgemmPackedBView& b, const QgemmRequantizedOutput& output,
                            ThreadPool* pool) {
  RunPacked(m, a, lda, a_zero, b, nullptr, 0, pool, nullptr, &output);
}

template <typename TA, typename TB>
void QGemmWithKernel(const QgemmKernel& kernel, int64_t m, int64_t n, int64_t k, const TA* a,
                     int64_t lda, std::span<const int32_t> a_zero, const TB* b, int64_t ldb,
                     std::span<const int32_t> b_zero, int32_t* c, int64_t ldc, ThreadPool* pool) {
  if (m <= 0 || n <= 0) return;
  const Layout layout(kernel, k, n);
  thread_local AlignedScratch<uint8_t> b_scratch;
  thread_local std::vector<int32_t> sums;
  uint8_t* packed = b_scratch.Get(static_cast<size_t>(layout.Bytes()));
  std::vector<int32_t> zeros = ShiftedZeroPoints<TB>(n, b_zero);
  sums.resize(static_cast<size_t>(n));
  Vectorized([&] { PackB(kernel, layout, k, n, b, ldb, 1, packed, sums.data()); });
  const QgemmPackedBView view{&kernel, k,           n,
                              packed,  sums.data(), zeros.empty() ? nullptr : zeros.data()};
  QGemmPacked(m, a, lda, a_zero, view, c, ldc, pool);
}

template <typename TA, typename TB>
void QGemm(int64_t m, int64_t n, int64_t k, const TA* a, int64_t lda,
           std::span<const int32_t> a_zero, const TB* b, int64_t ldb,
           std::span<const int32_t> b_zero, int32_t* c, int64_t ldc, ThreadPool* pool) {
  QGemmWithKernel(BestQgemmKernelFor(k, n), m, n, k, a, lda, a_zero, b, ldb, b_zero, c, ldc, pool);
}

#define ORT_QGEMM_INSTANTIATE(TA, TB)                                                             \
  template void QGemm<TA, TB>(int64_t, int64_t, int64_t, const TA*, int64_t,                      \
                              std::span<const int32_t>, const TB*, int64_t,                       \
                              std::span<const int32_t>, int32_t*, int64_t, ThreadPool*);          \
  template void QGemmWithKernel<TA, TB>(const QgemmKernel&, int64_t, int64_t, int64_t, const TA*, \
                                        int64_t, std::span<const int32_t>, const TB*, int64_t,    \
                                        std::span<const int32_t>, int32_t*, int64_t, ThreadPool*);
ORT_QGEMM_INSTANTIATE(uint8_t, uint8_t)
ORT_QGEMM_INSTANTIATE(uint8_t, int8_t)
ORT_QGEMM_INSTANTIATE(int8_t, uint8_t)
ORT_QGEMM_INSTANTIATE(int8_t, int8_t)
#undef ORT_QGEMM_INSTANTIATE

template void QGemmPacked<uint8_t>(int64_t, const uint8_t*, int64_t, std::span<const int32_t>,
                                   const QgemmPackedBView&, int32_t*, int64_t, ThreadPool*,
                                   const QgemmBlockDone&);
template void QGemmPacked<int8_t>(int64_t, const int8_t*, int64_t, std::span<const int32_t>,
                                  const QgemmPackedBView&, int32_t*, int64_t, ThreadPool*,
                                  const QgemmBlockDone&);
template void QGemmPackedRequantized<uint8_t>(int64_t, const uint8_t*, int64_t,
                                              std::span<const int32_t>, const QgemmPackedBView&,
                                              const QgemmRequantizedOutput&, ThreadPool*);
template void QGemmPackedRequantized<int8_t>(int64_t, const int8_t*, int64_t,
                                             std::span<const int32_t>, const QgemmPackedBView&,
                                             const QgemmRequantizedOutput&, ThreadPool*);
template PackedQgemmB::PackedQgemmB(const QgemmKernel&, int64_t, int64_t, const uint8_t*, int64_t,
                                    std::span<const int32_t>, bool);
template PackedQgemmB::PackedQgemmB(const QgemmKernel&, int64_t, int64_t, const int8_t*, int64_t,
                                    std::span<const int32_t>, bool);

}  // namespace ort
