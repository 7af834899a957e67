#include "providers/cpu/kernels/common/gemm.h"

#include <algorithm>
#include <vector>

namespace ort {
namespace {

// Rows of C computed per task, and the K and N block sizes that keep a panel of B in cache.
constexpr int64_t kBlockK = 256;
constexpr int64_t kBlockN = 512;

template <typename T>
void GemmRows(int64_t row_begin, int64_t row_end, int64_t n, int64_t k, T alpha, const T* a,
              int64_t a_row_stride, int64_t a_col_stride, const T* b, int64_t ldb, T beta, T* c,
              int64_t ldc) {
  for (int64_t i = row_begin; i < row_end; ++i) {
    T* c_row = c + i * ldc;
    if (beta == T(0)) {
      std::fill(c_row, c_row + n, T(0));
    } else if (beta != T(1)) {
      for (int64_t j = 0; j < n; ++j) c_row[j] *= beta;
    }
  }
  for (int64_t n0 = 0; n0 < n; n0 += kBlockN) {
    const int64_t n1 = std::min(n, n0 + kBlockN);
    for (int64_t k0 = 0; k0 < k; k0 += kBlockK) {
      const int64_t k1 = std::min(k, k0 + kBlockK);
      for (int64_t i = row_begin; i < row_end; ++i) {
        T* __restrict c_row = c + i * ldc;
        const T* a_row = a + i * a_row_stride;
        for (int64_t p = k0; p < k1; ++p) {
          const T scale = alpha * a_row[p * a_col_stride];
          const T* __restrict b_row = b + p * ldb;
          for (int64_t j = n0; j < n1; ++j) c_row[j] += scale * b_row[j];
        }
      }
    }
  }
}

template <typename T>
void Gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
          int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc, ThreadPool* pool) {
  if (m <= 0 || n <= 0) return;
  // The row kernel streams rows of B: materialize op(B) when B is transposed.
  std::vector<T> b_copy;
  if (transpose_b && k > 0) {
    b_copy.resize(static_cast<size_t>(k * n));
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t p = 0; p < k; ++p) b_copy[p * n + j] = b[j * ldb + p];
    }
    b = b_copy.data();
    ldb = n;
  }
  const int64_t a_row_stride = transpose_a ? 1 : lda;
  const int64_t a_col_stride = transpose_a ? lda : 1;
  const double cost_per_row = 2.0 * static_cast<double>(n) * static_cast<double>(k) + n;
  ThreadPool::TryParallelFor(pool, m, cost_per_row, [&](int64_t begin, int64_t end) {
    GemmRows<T>(begin, end, n, k, alpha, a, a_row_stride, a_col_stride, b, ldb, beta, c, ldc);
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

}  // namespace ort
