// Matrix-vector products for the GEMM driver (gemm_driver.h): when m == 1 or n == 1, packing
// would cost as much as the product.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/gemm_view.h"

namespace ort::gemm_detail {

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

/// y = alpha * mat x + beta * y (beta == 0 ignores y's contents).
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

}  // namespace ort::gemm_detail
