// The half-precision family of TypedGemm (gemm.h): Float16 and BFloat16.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/gemm_view.h"

namespace ort::gemm_detail {

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

}  // namespace ort::gemm_detail
