#include "providers/cpu/kernels/common/gemm.h"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace ort {
namespace {

// Cache blocking (GotoBLAS style): a task owns an Mc x Nc block of C and walks K in steps of Kc.
// Per step it packs an Mc x Kc block of A (kept in L2) into panels of Mr rows and a Kc x Nc
// block of B into panels of Nr columns; one B panel (Kc x Nr) stays in L1 while the microkernel
// sweeps every A panel past it.
template <typename T>
struct GemmTile;
template <>
struct GemmTile<float> {
  static constexpr int64_t kMr = 4;
  static constexpr int64_t kNr = 8;
  static constexpr int64_t kKc = 256;
  static constexpr int64_t kMc = 128;
  static constexpr int64_t kNc = 512;
};
template <>
struct GemmTile<double> {
  static constexpr int64_t kMr = 4;
  static constexpr int64_t kNr = 8;
  static constexpr int64_t kKc = 256;
  static constexpr int64_t kMc = 64;
  static constexpr int64_t kNc = 256;
};

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
/// panels of Mr rows stored column by column; rows past the end are zero.
template <typename T>
void PackA(const MatrixView<T>& a, int64_t row0, int64_t rows, int64_t col0, int64_t depth, T alpha,
           T* packed) {
  constexpr int64_t kMr = GemmTile<T>::kMr;
  for (int64_t r = 0; r < rows; r += kMr) {
    const int64_t valid = std::min(kMr, rows - r);
    T* panel = packed + r * depth;
    for (int64_t i = 0; i < kMr; ++i) {
      if (i >= valid) {
        for (int64_t p = 0; p < depth; ++p) panel[p * kMr + i] = T(0);
        continue;
      }
      const T* source = a.data + (row0 + r + i) * a.row_stride + col0 * a.col_stride;
      for (int64_t p = 0; p < depth; ++p) panel[p * kMr + i] = alpha * source[p * a.col_stride];
    }
  }
}

/// Packs rows [row0, row0 + depth) x columns [col0, col0 + cols) of op(B) into panels of Nr
/// columns stored row by row; columns past the end are zero.
template <typename T>
void PackB(const MatrixView<T>& b, int64_t row0, int64_t depth, int64_t col0, int64_t cols,
           T* packed) {
  constexpr int64_t kNr = GemmTile<T>::kNr;
  for (int64_t c = 0; c < cols; c += kNr) {
    const int64_t valid = std::min(kNr, cols - c);
    T* panel = packed + c * depth;
    const T* source = b.data + row0 * b.row_stride + (col0 + c) * b.col_stride;
    if (valid == kNr && b.col_stride == 1) {
      for (int64_t p = 0; p < depth; ++p) {
        const T* row = source + p * b.row_stride;
        for (int64_t j = 0; j < kNr; ++j) panel[p * kNr + j] = row[j];
      }
    } else {
      for (int64_t p = 0; p < depth; ++p) {
        const T* row = source + p * b.row_stride;
        for (int64_t j = 0; j < valid; ++j) panel[p * kNr + j] = row[j * b.col_stride];
        for (int64_t j = valid; j < kNr; ++j) panel[p * kNr + j] = T(0);
      }
    }
  }
}

/// The register-tiled inner kernel: acc[Mr][Nr] = sum over depth of an A panel column times a B
/// panel row. Written so the compiler keeps `acc` in vector registers (fixed trip counts, B row
/// copied to a local first); a later ISA-specific kernel replaces this one behind the same
/// packing layout.
template <typename T>
inline void MicroKernel(int64_t depth, const T* __restrict a, const T* __restrict b,
                        T (&acc)[GemmTile<T>::kMr][GemmTile<T>::kNr]) {
  constexpr int64_t kMr = GemmTile<T>::kMr;
  constexpr int64_t kNr = GemmTile<T>::kNr;
  for (int64_t i = 0; i < kMr; ++i) {
    for (int64_t j = 0; j < kNr; ++j) acc[i][j] = T(0);
  }
  for (int64_t p = 0; p < depth; ++p) {
    T row[kNr];
    for (int64_t j = 0; j < kNr; ++j) row[j] = b[j];
    for (int64_t i = 0; i < kMr; ++i) {
      const T value = a[i];
      for (int64_t j = 0; j < kNr; ++j) acc[i][j] += value * row[j];
    }
    a += kMr;
    b += kNr;
  }
}

/// Writes a tile: C = acc + beta * C on the first K step (beta == 0 ignores C), C += acc later.
template <typename T>
inline void StoreTile(const T (&acc)[GemmTile<T>::kMr][GemmTile<T>::kNr], int64_t rows,
                      int64_t cols, T beta, bool first, T* c, int64_t ldc) {
  for (int64_t i = 0; i < rows; ++i) {
    T* out = c + i * ldc;
    if (!first || beta == T(1)) {
      for (int64_t j = 0; j < cols; ++j) out[j] += acc[i][j];
    } else if (beta == T(0)) {
      for (int64_t j = 0; j < cols; ++j) out[j] = acc[i][j];
    } else {
      for (int64_t j = 0; j < cols; ++j) out[j] = acc[i][j] + beta * out[j];
    }
  }
}

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

template <typename T>
void ComputeBlock(const MatrixView<T>& a, const MatrixView<T>& b, int64_t row0, int64_t rows,
                  int64_t col0, int64_t cols, int64_t k, T alpha, T beta, T* c, int64_t ldc) {
  using Tile = GemmTile<T>;
  const int64_t padded_rows = (rows + Tile::kMr - 1) / Tile::kMr * Tile::kMr;
  const int64_t padded_cols = (cols + Tile::kNr - 1) / Tile::kNr * Tile::kNr;
  T* packed_a = ThreadBuffer<T>(0, padded_rows * Tile::kKc);
  T* packed_b = ThreadBuffer<T>(1, padded_cols * Tile::kKc);
  for (int64_t p0 = 0; p0 < k; p0 += Tile::kKc) {
    const int64_t depth = std::min(Tile::kKc, k - p0);
    const bool first = p0 == 0;
    PackA(a, row0, rows, p0, depth, alpha, packed_a);
    PackB(b, p0, depth, col0, cols, packed_b);
    for (int64_t j = 0; j < cols; j += Tile::kNr) {
      const T* b_panel = packed_b + j * depth;
      const int64_t tile_cols = std::min(Tile::kNr, cols - j);
      for (int64_t i = 0; i < rows; i += Tile::kMr) {
        T acc[Tile::kMr][Tile::kNr];
        MicroKernel<T>(depth, packed_a + i * depth, b_panel, acc);
        StoreTile<T>(acc, std::min(Tile::kMr, rows - i), tile_cols, beta, first,
                     c + (row0 + i) * ldc + col0 + j, ldc);
      }
    }
  }
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
void Gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
          int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc, ThreadPool* pool) {
  using Tile = GemmTile<T>;
  if (m <= 0 || n <= 0) return;
  if (k <= 0 || alpha == T(0)) {
    ScaleC(m, n, beta, c, ldc);
    return;
  }
  const MatrixView<T> view_a = MakeView(a, lda, transpose_a);
  const MatrixView<T> view_b = MakeView(b, ldb, transpose_b);
  if (m == 1 || n == 1) {
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
  // Split C into blocks: full Mc x Nc blocks, narrowed along N when there are too few blocks
  // to keep every thread busy.
  const int64_t threads = pool == nullptr ? 1 : pool->DegreeOfParallelism();
  const int64_t row_blocks = (m + Tile::kMc - 1) / Tile::kMc;
  int64_t block_cols = Tile::kNc;
  if (threads > 1 && row_blocks * ((n + block_cols - 1) / block_cols) < 2 * threads) {
    const int64_t wanted_col_blocks = (2 * threads + row_blocks - 1) / row_blocks;
    const int64_t narrowed = (n + wanted_col_blocks - 1) / wanted_col_blocks;
    block_cols = std::max(Tile::kNr * 4, (narrowed + Tile::kNr - 1) / Tile::kNr * Tile::kNr);
    block_cols = std::min(block_cols, Tile::kNc);
  }
  const int64_t col_blocks = (n + block_cols - 1) / block_cols;
  const double cost_per_block = static_cast<double>(std::min(m, Tile::kMc)) *
                                static_cast<double>(std::min(n, block_cols)) *
                                static_cast<double>(k) * 0.5;
  ThreadPool::TryParallelFor(
      pool, row_blocks * col_blocks, cost_per_block, [&](int64_t begin, int64_t end) {
        for (int64_t block = begin; block < end; ++block) {
          const int64_t row0 = (block / col_blocks) * Tile::kMc;
          const int64_t col0 = (block % col_blocks) * block_cols;
          ComputeBlock<T>(view_a, view_b, row0, std::min(Tile::kMc, m - row0), col0,
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
  Gemm<float>(false, false, m, n, k, alpha, fa.data(), k, fb.data(), n, beta, fc.data(), n, pool);
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

void Sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
           const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
           int64_t ldc, ThreadPool* pool) {
  Gemm<float>(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, pool);
}

void Dgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, double alpha,
           const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
           int64_t ldc, ThreadPool* pool) {
  Gemm<double>(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, pool);
}

template <typename T>
void TypedGemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
               const T* a, int64_t lda, const T* b, int64_t ldb, float beta, T* c, int64_t ldc,
               ThreadPool* pool) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    Gemm<T>(transpose_a, transpose_b, m, n, k, static_cast<T>(alpha), a, lda, b, ldb,
            static_cast<T>(beta), c, ldc, pool);
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
