// The integer family of TypedGemm (gemm.h): int32, int64, uint32 and uint64.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/gemm_view.h"

namespace ort::gemm_detail {

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

}  // namespace ort::gemm_detail
