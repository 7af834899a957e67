// The blocked GEMM driver (gemm_driver.h) for float and double.
#include "providers/cpu/kernels/common/gemm_driver.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "providers/cpu/kernels/common/gemm_gemv.h"
#include "providers/cpu/kernels/common/gemm_pack.h"

namespace ort::gemm_detail {
namespace {

/// Pack buffers reused across calls on each thread (avoids large allocations per call).
template <typename T>
T* ThreadBuffer(size_t slot, int64_t count) {
  thread_local std::vector<T> buffers[2];
  std::vector<T>& buffer = buffers[slot];
  const size_t needed = static_cast<size_t>(count) + kPanelAlign / sizeof(T);
  if (buffer.size() < needed) buffer.resize(needed);
  return AlignToPanel(buffer.data());
}

/// Whether the microkernel reads A where it lies: row-major (with a row stride, which the kernel
/// tells from packed panels by its being non-zero) and not scaled.
template <typename T>
bool ReadsAInPlace(const GemmPlan<T>& plan, const MatrixView<T>& a, T alpha) {
  return plan.direct_a && a.col_stride == 1 && a.row_stride > 0 && alpha == T(1);
}

template <typename T>
void ComputeBlock(const GemmPlan<T>& plan, const MatrixView<T>& a, const OperandB<T>& b,
                  int64_t row0, int64_t rows, int64_t col0, int64_t cols, int64_t k, T alpha,
                  T beta, T* c, int64_t ldc) {
  const int64_t padded_rows = (rows + plan.mr - 1) / plan.mr * plan.mr;
  const int64_t padded_cols = (cols + plan.nr - 1) / plan.nr * plan.nr;
  const bool in_place = ReadsAInPlace(plan, a, alpha);
  T* packed_a = in_place ? nullptr : ThreadBuffer<T>(0, padded_rows * plan.kc);
  T* packed_b = b.packed == nullptr ? ThreadBuffer<T>(1, padded_cols * plan.kc) : nullptr;
  for (int64_t p0 = 0; p0 < k; p0 += plan.kc) {
    const int64_t depth = std::min(plan.kc, k - p0);
    const T* a_block = a.data + row0 * a.row_stride + p0;
    int64_t lda = a.row_stride;
    if (!in_place) {
      PackA(a, plan.mr, row0, rows, p0, depth, alpha, packed_a);
      a_block = packed_a;
      lda = 0;
    }
    const T* b_block = packed_b;
    if (b.packed == nullptr) {
      PackB(b.view, plan.nr, p0, depth, col0, cols, packed_b);
    } else {
      b_block = b.packed + p0 * b.packed_stride + col0 * depth;
    }
    plan.block(rows, cols, depth, a_block, lda, b_block, beta, p0 == 0, c + row0 * ldc + col0, ldc);
  }
}

/// C = alpha * op(A) * B + beta * C with a pre-packed B on several threads: A, unless the kernel
/// reads it in place, is packed once, by all threads, into one shared buffer; then narrow column
/// blocks (several per thread, so a late thread's share is taken over) each sweep every depth
/// step. Splitting rows instead would leave few, uneven blocks for short A (128 rows are 9 panels
/// of 14 and 2 rows); splitting columns with per-block packing would pack A once per block.
template <typename T>
void GemmSharedA(const GemmPlan<T>& plan, int64_t m, int64_t n, int64_t k, T alpha,
                 const MatrixView<T>& a, const OperandB<T>& b, T beta, T* c, int64_t ldc,
                 ThreadPool* pool) {
  const int64_t padded_m = (m + plan.mr - 1) / plan.mr * plan.mr;
  const bool in_place = ReadsAInPlace(plan, a, alpha);
  T* packed_a = in_place ? nullptr : ThreadBuffer<T>(0, padded_m * k);
  const int64_t depth_blocks = (k + plan.kc - 1) / plan.kc;
  const int64_t panels = padded_m / plan.mr;
  if (!in_place) {
    ThreadPool::TryParallelFor(pool, depth_blocks * panels, static_cast<double>(plan.mr * plan.kc),
                               [&](int64_t begin, int64_t end) {
                                 for (int64_t task = begin; task < end; ++task) {
                                   const int64_t p0 = task / panels * plan.kc;
                                   const int64_t row0 = task % panels * plan.mr;
                                   const int64_t depth = std::min(plan.kc, k - p0);
                                   PackA(a, plan.mr, row0, std::min(plan.mr, m - row0), p0, depth,
                                         alpha, packed_a + p0 * padded_m + row0 * depth);
                                 }
                               });
  }
  const int64_t threads = pool->DegreeOfParallelism();
  const int64_t wanted = 4 * threads;
  const int64_t cols = std::max(plan.nr, (n / wanted + plan.nr - 1) / plan.nr * plan.nr);
  const int64_t col_blocks = (n + cols - 1) / cols;
  const double cost =
      static_cast<double>(m) * static_cast<double>(cols) * static_cast<double>(k) * 0.25;
  ThreadPool::TryParallelFor(pool, col_blocks, cost, [&](int64_t begin, int64_t end) {
    for (int64_t block = begin; block < end; ++block) {
      const int64_t col0 = block * cols;
      const int64_t width = std::min(cols, n - col0);
      // Mc rows at a time keep the A block of each depth step in L2.
      for (int64_t row0 = 0; row0 < m; row0 += plan.mc) {
        const int64_t rows = std::min(plan.mc, m - row0);
        for (int64_t p0 = 0; p0 < k; p0 += plan.kc) {
          const int64_t depth = std::min(plan.kc, k - p0);
          const T* a_block = in_place ? a.data + row0 * a.row_stride + p0
                                      : packed_a + p0 * padded_m + row0 * depth;
          plan.block(rows, width, depth, a_block, in_place ? a.row_stride : 0,
                     b.packed + p0 * b.packed_stride + col0 * depth, beta, p0 == 0,
                     c + row0 * ldc + col0, ldc);
        }
      }
    }
  });
}

/// C = beta * C (beta == 0 clears C, ignoring NaN in it).
template <typename T>
void ScaleC(int64_t m, int64_t n, T beta, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    T* row = c + i * ldc;
    if (beta == T(0)) {
      std::fill(row, row + n, T(0));
    } else if (beta != T(1)) {
      for (int64_t j = 0; j < n; ++j) row[j] *= beta;
    }
  }
}

}  // namespace

template <typename T>
void Gemm(const GemmPlan<T>& plan, bool transpose_a, int64_t m, int64_t n, int64_t k, T alpha,
          const T* a, int64_t lda, const OperandB<T>& operand_b, T beta, T* c, int64_t ldc,
          ThreadPool* pool) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0 || alpha == T(0)) {
    ScaleC(m, n, beta, c, ldc);
    return;
  }
  const MatrixView<T> view_a = MakeView(a, lda, transpose_a);
  const MatrixView<T>& view_b = operand_b.view;
  if (operand_b.packed != nullptr && pool != nullptr && pool->DegreeOfParallelism() > 1) {
    GemmSharedA(plan, m, n, k, alpha, view_a, operand_b, beta, c, ldc, pool);
    return;
  }
  if (operand_b.packed == nullptr && (m == 1 || n == 1)) {
    // Gather the vector operand contiguously, then run C's single row or column as a GEMV.
    const MatrixView<T>& vector_view = m == 1 ? view_a : view_b;
    const int64_t vector_stride = m == 1 ? vector_view.col_stride : vector_view.row_stride;
    std::vector<T> gathered;
    const T* x = vector_view.data;
    if (vector_stride != 1) {
      gathered.resize(static_cast<size_t>(k));
      for (int64_t p = 0; p < k; ++p) gathered[p] = x[p * vector_stride];
      x = gathered.data();
    }
    if (m == 1) {
      // C row = x^T op(B): op(B)^T is n x k with strides swapped.
      const MatrixView<T> bt{view_b.data, view_b.col_stride, view_b.row_stride};
      Gemv(n, k, alpha, bt, x, beta, c, 1, pool);
    } else {
      Gemv(m, k, alpha, view_a, x, beta, c, ldc, pool);
    }
    return;
  }
  // Split C into blocks: full Mc x Nc blocks, narrowed along N (which keeps each packed A block
  // reused across the widest B) and then along M when there are too few blocks to keep every
  // thread busy; never narrower than one register tile.
  const int64_t threads = pool == nullptr ? 1 : pool->DegreeOfParallelism();
  const int64_t wanted_blocks = threads > 1 ? 2 * threads : 1;
  int64_t block_rows = plan.mc;
  // A pre-packed B needs no packing buffer, so a block may span all of N and pack its rows of A
  // once per depth step for every column.
  const int64_t max_cols = operand_b.packed != nullptr ? n : plan.nc;
  int64_t block_cols = max_cols;
  const auto narrow = [](int64_t extent, int64_t wanted, int64_t tile, int64_t limit) {
    const int64_t narrowed = (extent + wanted - 1) / wanted;
    return std::min(limit, std::max(tile, (narrowed + tile - 1) / tile * tile));
  };
  int64_t row_blocks = (m + block_rows - 1) / block_rows;
  if (row_blocks * ((n + block_cols - 1) / block_cols) < wanted_blocks) {
    block_cols = narrow(n, (wanted_blocks + row_blocks - 1) / row_blocks, plan.nr, max_cols);
  }
  const int64_t col_blocks = (n + block_cols - 1) / block_cols;
  if (row_blocks * col_blocks < wanted_blocks) {
    block_rows = narrow(m, (wanted_blocks + col_blocks - 1) / col_blocks, plan.mr, plan.mc);
    row_blocks = (m + block_rows - 1) / block_rows;
  }
  // Estimated cycles: the microkernels retire several multiply-adds per cycle.
  const double cost_per_block = static_cast<double>(std::min(m, block_rows)) *
                                static_cast<double>(std::min(n, block_cols)) *
                                static_cast<double>(k) * 0.25;
  ThreadPool::TryParallelFor(
      pool, row_blocks * col_blocks, cost_per_block, [&](int64_t begin, int64_t end) {
        for (int64_t block = begin; block < end; ++block) {
          const int64_t row0 = (block / col_blocks) * block_rows;
          const int64_t col0 = (block % col_blocks) * block_cols;
          ComputeBlock<T>(plan, view_a, operand_b, row0, std::min(block_rows, m - row0), col0,
                          std::min(block_cols, n - col0), k, alpha, beta, c, ldc);
        }
      });
}

template void Gemm<float>(const GemmPlan<float>&, bool, int64_t, int64_t, int64_t, float,
                          const float*, int64_t, const OperandB<float>&, float, float*, int64_t,
                          ThreadPool*);
template void Gemm<double>(const GemmPlan<double>&, bool, int64_t, int64_t, int64_t, double,
                           const double*, int64_t, const OperandB<double>&, double, double*,
                           int64_t, ThreadPool*);

}  // namespace ort::gemm_detail
