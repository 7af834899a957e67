#include "providers/cpu/kernels/common/gemm.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/common/sgemm_kernel.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {
namespace {

// Cache blocking (GotoBLAS style): a task owns an Mc x Nc block of C and walks K in steps of Kc.
// Per step it packs an Mc x Kc block of A (kept in L2) into panels of Mr rows and a Kc x Nc
// block of B into panels of Nr columns; one B panel (Kc x Nr) stays in L1 while the microkernel
// sweeps every A panel past it. Float takes Mr and Nr from its microkernel (sgemm_kernel.h);
// double uses the portable one below.
template <typename T>
using BlockFn = void (*)(int64_t rows, int64_t cols, int64_t depth, const T* packed_a,
                         const T* packed_b, T beta, bool first, T* c, int64_t ldc);

template <typename T>
struct GemmPlan {
  int64_t mr;
  int64_t nr;
  int64_t kc;
  int64_t mc;  // a multiple of mr, so only the last row block has a partial panel
  int64_t nc;  // a multiple of nr
  BlockFn<T> block;
};

constexpr int64_t kSgemmKc = 768;
constexpr int64_t kSgemmMcTarget = 192;
constexpr int64_t kSgemmNc = 512;

constexpr int64_t kDgemmMr = 4;
constexpr int64_t kDgemmNr = 8;

// Each packed panel starts on a cache line.
constexpr int64_t kPanelAlign = 64;

/// Element (i, p) of op(A) and (p, j) of op(B), whatever the transposition.
template <typename T>
struct MatrixView {
  const T* data;
  int64_t row_stride;
  int64_t col_stride;
  T At(int64_t row, int64_t col) const { return data[row * row_stride + col * col_stride]; }
};

template <typename T>
MatrixView<T> MakeView(const T* data, int64_t ld, bool transposed) {
  return transposed ? MatrixView<T>{data, 1, ld} : MatrixView<T>{data, ld, 1};
}

/// Packs rows [row0, row0 + rows) x columns [col0, col0 + depth) of op(A), scaled by alpha, into
/// panels of mr rows stored column by column; rows past the end are zero.
template <typename T>
void PackA(const MatrixView<T>& a, int64_t mr, int64_t row0, int64_t rows, int64_t col0,
           int64_t depth, T alpha, T* packed) {
  for (int64_t r = 0; r < rows; r += mr) {
    const int64_t valid = std::min(mr, rows - r);
    T* panel = packed + r * depth;
    const T* source = a.data + (row0 + r) * a.row_stride + col0 * a.col_stride;
    for (int64_t p = 0; p < depth; ++p) {
      const T* column = source + p * a.col_stride;
      T* out = panel + p * mr;
      for (int64_t i = 0; i < valid; ++i) out[i] = alpha * column[i * a.row_stride];
      for (int64_t i = valid; i < mr; ++i) out[i] = T(0);
    }
  }
}

/// Packs rows [row0, row0 + depth) x columns [col0, col0 + cols) of op(B) into panels of nr
/// columns stored row by row; columns past the end are zero.
template <typename T>
void PackB(const MatrixView<T>& b, int64_t nr, int64_t row0, int64_t depth, int64_t col0,
           int64_t cols, T* packed) {
  for (int64_t c = 0; c < cols; c += nr) {
    const int64_t valid = std::min(nr, cols - c);
    T* panel = packed + c * depth;
    const T* source = b.data + row0 * b.row_stride + (col0 + c) * b.col_stride;
    if (valid == nr && b.col_stride == 1) {
      for (int64_t p = 0; p < depth; ++p) {
        std::copy_n(source + p * b.row_stride, nr, panel + p * nr);
      }
    } else {
      // Walk each source column along its contiguous direction (transposed B) and scatter into
      // the panel, which is small enough to stay in L1.
      for (int64_t j = 0; j < valid; ++j) {
        const T* column = source + j * b.col_stride;
        for (int64_t p = 0; p < depth; ++p) panel[p * nr + j] = column[p * b.row_stride];
      }
      for (int64_t p = 0; p < depth; ++p) {
        for (int64_t j = valid; j < nr; ++j) panel[p * nr + j] = T(0);
      }
    }
  }
}

/// The double-precision register tile: acc[Mr][Nr] = sum over depth of an A panel column times
/// a B panel row. Fixed trip counts and the B row copied to a local let the compiler keep `acc`
/// in vector registers.
inline void DgemmMicroKernel(int64_t depth, const double* __restrict a, const double* __restrict b,
                             double (&acc)[kDgemmMr][kDgemmNr]) {
  for (int64_t i = 0; i < kDgemmMr; ++i) {
    for (int64_t j = 0; j < kDgemmNr; ++j) acc[i][j] = 0.0;
  }
  for (int64_t p = 0; p < depth; ++p) {
    double row[kDgemmNr];
    for (int64_t j = 0; j < kDgemmNr; ++j) row[j] = b[j];
    for (int64_t i = 0; i < kDgemmMr; ++i) {
      const double value = a[i];
      for (int64_t j = 0; j < kDgemmNr; ++j) acc[i][j] += value * row[j];
    }
    a += kDgemmMr;
    b += kDgemmNr;
  }
}

/// The double-precision BlockFn (same contract as SgemmKernel::block).
void DgemmBlock(int64_t rows, int64_t cols, int64_t depth, const double* packed_a,
                const double* packed_b, double beta, bool first, double* c, int64_t ldc) {
  for (int64_t j = 0; j < cols; j += kDgemmNr) {
    const int64_t tile_cols = std::min(kDgemmNr, cols - j);
    for (int64_t i = 0; i < rows; i += kDgemmMr) {
      double acc[kDgemmMr][kDgemmNr];
      DgemmMicroKernel(depth, packed_a + i * depth, packed_b + j * depth, acc);
      const int64_t tile_rows = std::min(kDgemmMr, rows - i);
      for (int64_t r = 0; r < tile_rows; ++r) {
        double* out = c + (i + r) * ldc + j;
        if (!first || beta == 1.0) {
          for (int64_t q = 0; q < tile_cols; ++q) out[q] += acc[r][q];
        } else if (beta == 0.0) {
          for (int64_t q = 0; q < tile_cols; ++q) out[q] = acc[r][q];
        } else {
          for (int64_t q = 0; q < tile_cols; ++q) out[q] = acc[r][q] + beta * out[q];
        }
      }
    }
  }
}

GemmPlan<float> SgemmPlan(const SgemmKernel& kernel) {
  const int64_t mc = (kSgemmMcTarget + kernel.mr - 1) / kernel.mr * kernel.mr;
  const int64_t nc = (kSgemmNc + kernel.nr - 1) / kernel.nr * kernel.nr;
  return GemmPlan<float>{kernel.mr, kernel.nr, kSgemmKc, mc, nc, kernel.block};
}

constexpr GemmPlan<double> kDgemmPlan{kDgemmMr, kDgemmNr, 256, 64, 256, DgemmBlock};

/// Pack buffers reused across calls on each thread (avoids large allocations per call).
template <typename T>
T* ThreadBuffer(size_t slot, int64_t count) {
  thread_local std::vector<T> buffers[2];
  std::vector<T>& buffer = buffers[slot];
  const size_t needed = static_cast<size_t>(count) + kPanelAlign / sizeof(T);
  if (buffer.size() < needed) buffer.resize(needed);
  auto address = reinterpret_cast<uintptr_t>(buffer.data());
  address = (address + kPanelAlign - 1) & ~static_cast<uintptr_t>(kPanelAlign - 1);
  return reinterpret_cast<T*>(address);
}

/// op(B) either as a matrix to pack block by block or already packed whole (PackedSgemmB's
/// layout: depth block p0 at packed + p0 * packed_stride).
template <typename T>
struct OperandB {
  MatrixView<T> view;
  const T* packed = nullptr;
  int64_t packed_stride = 0;
};

template <typename T>
void ComputeBlock(const GemmPlan<T>& plan, const MatrixView<T>& a, const OperandB<T>& b,
                  int64_t row0, int64_t rows, int64_t col0, int64_t cols, int64_t k, T alpha,
                  T beta, T* c, int64_t ldc) {
  const int64_t padded_rows = (rows + plan.mr - 1) / plan.mr * plan.mr;
  const int64_t padded_cols = (cols + plan.nr - 1) / plan.nr * plan.nr;
  T* packed_a = ThreadBuffer<T>(0, padded_rows * plan.kc);
  T* packed_b = b.packed == nullptr ? ThreadBuffer<T>(1, padded_cols * plan.kc) : nullptr;
  for (int64_t p0 = 0; p0 < k; p0 += plan.kc) {
    const int64_t depth = std::min(plan.kc, k - p0);
    PackA(a, plan.mr, row0, rows, p0, depth, alpha, packed_a);
    const T* b_block = packed_b;
    if (b.packed == nullptr) {
      PackB(b.view, plan.nr, p0, depth, col0, cols, packed_b);
    } else {
      b_block = b.packed + p0 * b.packed_stride + col0 * depth;
    }
    plan.block(rows, cols, depth, packed_a, b_block, beta, p0 == 0, c + row0 * ldc + col0, ldc);
  }
}

/// C = alpha * op(A) * B + beta * C with a pre-packed B on several threads: A is packed once, by
/// all threads, into one shared buffer; then narrow column blocks (several per thread, so a late
/// thread's share is taken over) each sweep every depth step. Splitting rows instead would leave
/// few, uneven blocks for short A (128 rows are 9 panels of 14 and 2 rows); splitting columns
/// with per-block packing would pack A once per block.
template <typename T>
void GemmSharedA(const GemmPlan<T>& plan, int64_t m, int64_t n, int64_t k, T alpha,
                 const MatrixView<T>& a, const OperandB<T>& b, T beta, T* c, int64_t ldc,
                 ThreadPool* pool) {
  const int64_t padded_m = (m + plan.mr - 1) / plan.mr * plan.mr;
  T* packed_a = ThreadBuffer<T>(0, padded_m * k);
  const int64_t depth_blocks = (k + plan.kc - 1) / plan.kc;
  const int64_t panels = padded_m / plan.mr;
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
          plan.block(rows, width, depth, packed_a + p0 * padded_m + row0 * depth,
                     b.packed + p0 * b.packed_stride + col0 * depth, beta, p0 == 0,
                     c + row0 * ldc + col0, ldc);
        }
      }
    }
  });
}

/// out[0, nr) += a[0, depth) * one packed panel (depth x nr, row by row). With nr fixed at
/// compile time the sums stay in registers; even and odd depth steps use separate sums so that
/// consecutive multiply-adds do not wait for each other.
template <int kNr>
inline void PanelRow(int64_t depth, const MatrixView<float>& a, int64_t p0,
                     const float* __restrict panel, float* __restrict out) {
  float even[kNr] = {}, odd[kNr] = {};
  int64_t p = 0;
  for (; p + 2 <= depth; p += 2) {
    const float first = a.At(0, p0 + p), second = a.At(0, p0 + p + 1);
    for (int j = 0; j < kNr; ++j) even[j] += first * panel[p * kNr + j];
    for (int j = 0; j < kNr; ++j) odd[j] += second * panel[(p + 1) * kNr + j];
  }
  if (p < depth) {
    const float last = a.At(0, p0 + p);
    for (int j = 0; j < kNr; ++j) even[j] += last * panel[p * kNr + j];
  }
  for (int j = 0; j < kNr; ++j) out[j] += even[j] + odd[j];
}

void PanelRowAnyWidth(int64_t nr, int64_t depth, const MatrixView<float>& a, int64_t p0,
                      const float* __restrict panel, float* __restrict out) {
  for (int64_t p = 0; p < depth; ++p) {
    const float value = a.At(0, p0 + p);
    for (int64_t j = 0; j < nr; ++j) out[j] += value * panel[p * nr + j];
  }
}

/// PanelRow for the panel width of each vector kernel in sgemm_kernels.inc; other widths (the
/// portable kernel's) take PanelRowAnyWidth.
template <size_t... kIndex>
void PanelRowOfWidth(std::index_sequence<kIndex...>, int64_t nr, int64_t depth,
                     const MatrixView<float>& a, int64_t p0, const float* panel, float* out) {
  const bool fixed =
      ((kSgemmKernels[kIndex].isa != CpuIsa::kPortable && nr == kSgemmKernels[kIndex].nr &&
        (PanelRow<kSgemmKernels[kIndex].nr>(depth, a, p0, panel, out), true)) ||
       ...);
  if (!fixed) PanelRowAnyWidth(nr, depth, a, p0, panel, out);
}

/// C's single row (m == 1) from a pre-packed B: the panels are read once, in order, so the
/// product runs at memory speed without packing the vector.
void PackedRowProduct(const GemmPlan<float>& plan, int64_t k, int64_t n, float alpha,
                      const MatrixView<float>& a, const float* packed, int64_t packed_stride,
                      float beta, float* c, ThreadPool* pool) {
  const int64_t nr = plan.nr;
  const int64_t panels = (n + nr - 1) / nr;
  const double cost = 2.0 * static_cast<double>(k * nr);
  VectorizedParallelFor(pool, panels, cost, [&](int64_t begin, int64_t end) {
    std::vector<float> sums(static_cast<size_t>((end - begin) * nr), 0.0f);
    for (int64_t p0 = 0; p0 < k; p0 += plan.kc) {
      const int64_t depth = std::min(plan.kc, k - p0);
      for (int64_t panel = begin; panel < end; ++panel) {
        const float* source = packed + p0 * packed_stride + panel * nr * depth;
        float* out = sums.data() + (panel - begin) * nr;
        PanelRowOfWidth(std::make_index_sequence<std::size(kSgemmKernels)>(), nr, depth, a, p0,
                        source, out);
      }
    }
    const int64_t col_end = std::min(n, end * nr);
    for (int64_t j = begin * nr; j < col_end; ++j) {
      const float sum = alpha * sums[static_cast<size_t>(j - begin * nr)];
      c[j] = beta == 0.0f ? sum : sum + beta * c[j];
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

/// Dot product with independent partial sums so the compiler can vectorize it.
template <typename T>
T Dot(const T* __restrict x, const T* __restrict y, int64_t n) {
  constexpr int64_t kLanes = 8;
  T partial[kLanes] = {};
  int64_t p = 0;
  for (; p + kLanes <= n; p += kLanes) {
    for (int64_t l = 0; l < kLanes; ++l) partial[l] += x[p + l] * y[p + l];
  }
  T sum = T(0);
  for (int64_t l = 0; l < kLanes; ++l) sum += partial[l];
  for (; p < n; ++p) sum += x[p] * y[p];
  return sum;
}

template <typename T>
T Finish(T dot, T alpha, T beta, T previous) {
  return beta == T(0) ? alpha * dot : alpha * dot + beta * previous;
}

/// Matrix-vector products (m == 1 or n == 1): packing would cost as much as the product.
/// `rows` x `depth` matrix `mat` (row/column strides), vector x (contiguous), y strided by incy.
template <typename T>
void Gemv(int64_t rows, int64_t depth, T alpha, const MatrixView<T>& mat, const T* x, T beta, T* y,
          int64_t incy, ThreadPool* pool) {
  const double cost = 2.0 * static_cast<double>(depth);
  if (mat.col_stride == 1) {
    ThreadPool::TryParallelFor(pool, rows, cost, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        T& out = y[i * incy];
        out = Finish(Dot(mat.data + i * mat.row_stride, x, depth), alpha, beta, out);
      }
    });
    return;
  }
  // Rows of `mat` are strided and columns contiguous: accumulate column by column (axpy) into a
  // contiguous partial result per chunk of rows.
  ThreadPool::TryParallelFor(pool, rows, cost, [&](int64_t begin, int64_t end) {
    std::vector<T> sums(static_cast<size_t>(end - begin), T(0));
    T* __restrict s = sums.data();
    for (int64_t p = 0; p < depth; ++p) {
      const T* __restrict column = mat.data + p * mat.col_stride + begin;
      const T value = x[p];
      for (int64_t i = 0; i < end - begin; ++i) s[i] += value * column[i];
    }
    for (int64_t i = begin; i < end; ++i)
      y[i * incy] = Finish(s[i - begin], alpha, beta, y[i * incy]);
  });
}

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
  if constexpr (std::is_same_v<T, float>) {
    if (operand_b.packed != nullptr && m == 1) {
      PackedRowProduct(plan, k, n, alpha, view_a, operand_b.packed, operand_b.packed_stride, beta,
                       c, pool);
      return;
    }
  }
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

/// Half-precision GEMM through float copies of op(A), op(B) and C.
template <typename T>
void HalfGemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
              const T* a, int64_t lda, const T* b, int64_t ldb, float beta, T* c, int64_t ldc,
              ThreadPool* pool) {
  const MatrixView<T> view_a = MakeView(a, lda, transpose_a);
  const MatrixView<T> view_b = MakeView(b, ldb, transpose_b);
  std::vector<float> fa(static_cast<size_t>(m * k)), fb(static_cast<size_t>(k * n));
  std::vector<float> fc(static_cast<size_t>(m * n), 0.0f);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t p = 0; p < k; ++p) fa[i * k + p] = static_cast<float>(view_a.At(i, p));
  }
  for (int64_t p = 0; p < k; ++p) {
    for (int64_t j = 0; j < n; ++j) fb[p * n + j] = static_cast<float>(view_b.At(p, j));
  }
  if (beta != 0.0f) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) fc[i * n + j] = static_cast<float>(c[i * ldc + j]);
    }
  }
  Sgemm(false, false, m, n, k, alpha, fa.data(), k, fb.data(), n, beta, fc.data(), n, pool);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = T(fc[i * n + j]);
  }
}

/// Integer GEMM: products and sums wrap like two's complement hardware (computed unsigned, so
/// overflow is defined).
template <typename T>
void IntegerGemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
                 const T* a, int64_t lda, const T* b, int64_t ldb, float beta, T* c, int64_t ldc,
                 ThreadPool* pool) {
  using U = std::make_unsigned_t<T>;
  const MatrixView<T> view_a = MakeView(a, lda, transpose_a);
  const MatrixView<T> view_b = MakeView(b, ldb, transpose_b);
  const bool exact = alpha == 1.0f && (beta == 0.0f || beta == 1.0f);
  const double cost_per_row = 2.0 * static_cast<double>(n) * static_cast<double>(k);
  ThreadPool::TryParallelFor(pool, m, cost_per_row, [&](int64_t begin, int64_t end) {
    std::vector<U> sums(static_cast<size_t>(n));
    for (int64_t i = begin; i < end; ++i) {
      std::fill(sums.begin(), sums.end(), U(0));
      for (int64_t p = 0; p < k; ++p) {
        const U value = static_cast<U>(view_a.At(i, p));
        for (int64_t j = 0; j < n; ++j) sums[j] += value * static_cast<U>(view_b.At(p, j));
      }
      T* out = c + i * ldc;
      for (int64_t j = 0; j < n; ++j) {
        const T sum = static_cast<T>(sums[j]);
        if (exact) {
          out[j] = beta == 0.0f ? sum : static_cast<T>(sums[j] + static_cast<U>(out[j]));
        } else {
          const double previous = beta == 0.0f ? 0.0 : static_cast<double>(out[j]);
          out[j] = static_cast<T>(static_cast<double>(alpha) * static_cast<double>(sum) +
                                  static_cast<double>(beta) * previous);
        }
      }
    }
  });
}

}  // namespace

PackedSgemmB::PackedSgemmB(const SgemmKernel& kernel, bool transpose_b, int64_t k, int64_t n,
                           const float* b, int64_t ldb)
    : kernel_(&kernel), k_(k), n_(n), padded_n_((n + kernel.nr - 1) / kernel.nr * kernel.nr) {
  const GemmPlan<float> plan = SgemmPlan(kernel);
  storage_.resize(static_cast<size_t>(std::max<int64_t>(k, 1) * padded_n_) +
                  kPanelAlign / sizeof(float));
  auto address = reinterpret_cast<uintptr_t>(storage_.data());
  address = (address + kPanelAlign - 1) & ~static_cast<uintptr_t>(kPanelAlign - 1);
  float* packed = reinterpret_cast<float*>(address);
  data_ = packed;
  const MatrixView<float> view = MakeView(b, ldb, transpose_b);
  for (int64_t p0 = 0; p0 < k; p0 += plan.kc) {
    PackB(view, plan.nr, p0, std::min(plan.kc, k - p0), 0, n, packed + p0 * padded_n_);
  }
}

PackedSgemmB::PackedSgemmB(bool transpose_b, int64_t k, int64_t n, const float* b, int64_t ldb)
    : PackedSgemmB(BestSgemmKernelFor(n), transpose_b, k, n, b, ldb) {}

std::unique_ptr<PackedSgemmB> PackConstantB(const KernelInfo& info, size_t index, bool transpose) {
  const Tensor* b = info.ConstantInput(index);
  if (b == nullptr || b->dtype() != DataType::kFloat || b->shape().rank() != 2 ||
      b->NumElements() == 0) {
    return nullptr;
  }
  const int64_t rows = b->shape()[0], cols = b->shape()[1];
  return std::make_unique<PackedSgemmB>(transpose, transpose ? cols : rows, transpose ? rows : cols,
                                        b->Data<float>(), cols);
}

const SgemmKernel& BestSgemmKernelFor(int64_t n) {
  return BestIsaEntry(kSgemmKernels, [n](const SgemmKernel& kernel) {
    return (n + kernel.nr - 1) / kernel.nr * kernel.nr;
  });
}

void SgemmWithKernel(const SgemmKernel& kernel, bool transpose_a, bool transpose_b, int64_t m,
                     int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
                     int64_t ldb, float beta, float* c, int64_t ldc, ThreadPool* pool) {
  Gemm<float>(SgemmPlan(kernel), transpose_a, m, n, k, alpha, a, lda,
              OperandB<float>{MakeView(b, ldb, transpose_b)}, beta, c, ldc, pool);
}

void Sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
           const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
           int64_t ldc, ThreadPool* pool) {
  SgemmWithKernel(BestSgemmKernelFor(n), transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb,
                  beta, c, ldc, pool);
}

void SgemmPackedB(bool transpose_a, int64_t m, float alpha, const float* a, int64_t lda,
                  const PackedSgemmB& b, float beta, float* c, int64_t ldc, ThreadPool* pool) {
  const OperandB<float> operand{MatrixView<float>{nullptr, 0, 0}, b.data(), b.padded_n()};
  Gemm<float>(SgemmPlan(b.kernel()), transpose_a, m, b.n(), b.k(), alpha, a, lda, operand, beta, c,
              ldc, pool);
}

void Dgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, double alpha,
           const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
           int64_t ldc, ThreadPool* pool) {
  Gemm<double>(kDgemmPlan, transpose_a, m, n, k, alpha, a, lda,
               OperandB<double>{MakeView(b, ldb, transpose_b)}, beta, c, ldc, pool);
}

template <typename T>
void TypedGemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
               const T* a, int64_t lda, const T* b, int64_t ldb, float beta, T* c, int64_t ldc,
               ThreadPool* pool) {
  if constexpr (std::is_same_v<T, float>) {
    Sgemm(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, pool);
  } else if constexpr (std::is_same_v<T, double>) {
    Dgemm(transpose_a, transpose_b, m, n, k, static_cast<double>(alpha), a, lda, b, ldb,
          static_cast<double>(beta), c, ldc, pool);
  } else if constexpr (std::is_integral_v<T>) {
    if (m <= 0 || n <= 0) return;
    IntegerGemm<T>(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, pool);
  } else {
    if (m <= 0 || n <= 0) return;
    HalfGemm<T>(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, pool);
  }
}

#define ORT_INSTANTIATE_TYPED_GEMM(T)                                                         \
  template void TypedGemm<T>(bool, bool, int64_t, int64_t, int64_t, float, const T*, int64_t, \
                             const T*, int64_t, float, T*, int64_t, ThreadPool*)
ORT_INSTANTIATE_TYPED_GEMM(float);
ORT_INSTANTIATE_TYPED_GEMM(double);
ORT_INSTANTIATE_TYPED_GEMM(Float16);
ORT_INSTANTIATE_TYPED_GEMM(BFloat16);
ORT_INSTANTIATE_TYPED_GEMM(int32_t);
ORT_INSTANTIATE_TYPED_GEMM(int64_t);
ORT_INSTANTIATE_TYPED_GEMM(uint32_t);
ORT_INSTANTIATE_TYPED_GEMM(uint64_t);
#undef ORT_INSTANTIATE_TYPED_GEMM

}  // namespace ort
