// Single-precision matrix multiply used by MatMul, Gemm, Conv (im2col), RNN cells and others:
//   C[M,N] = alpha * op(A)[M,K] * op(B)[K,N] + beta * C
// Row-major with leading dimensions; op() transposes when asked. beta == 0 ignores C's contents
// (it may hold garbage or NaN).
#pragma once

#include <cstdint>

#include "lib/common/float16.h"
#include "lib/threading/thread_pool.h"

namespace ort {

void Sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
           const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
           int64_t ldc, ThreadPool* pool);

/// The same contract in double precision (for double-typed models and references).
void Dgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, double alpha,
           const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
           int64_t ldc, ThreadPool* pool);

/// The same contract for any numeric element type T, with float alpha/beta: float and double go
/// to Sgemm/Dgemm, Float16/BFloat16 compute through float copies, integer types (int32, int64,
/// uint32, uint64) multiply-accumulate in T with two's complement wrap-around; for integers an
/// alpha other than 1 or a beta other than 0/1 is applied in double and cast back.
template <typename T>
void TypedGemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
               const T* a, int64_t lda, const T* b, int64_t ldb, float beta, T* c, int64_t ldc,
               ThreadPool* pool);

}  // namespace ort
