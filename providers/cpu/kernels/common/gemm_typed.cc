// TypedGemm (gemm.h): GEMM of any numeric element type, sent to the routine of its type family.
#include <cstdint>
#include <type_traits>

#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/gemm_half.h"
#include "providers/cpu/kernels/common/gemm_integer.h"

namespace ort {

using gemm_detail::HalfGemm;
using gemm_detail::IntegerGemm;

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
