// Single-precision matrix multiply used by MatMul, Gemm, Conv (im2col), RNN cells and others:
//   C[M,N] = alpha * op(A)[M,K] * op(B)[K,N] + beta * C
// Row-major with leading dimensions; op() transposes when asked. beta == 0 ignores C's contents
// (it may hold garbage or NaN).
#pragma once

#include <cstdint>

#include "lib/threading/thread_pool.h"

namespace ort {

void Sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
           const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
           int64_t ldc, ThreadPool* pool);

/// The same contract in double precision (for double-typed models and references).
void Dgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, double alpha,
           const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
           int64_t ldc, ThreadPool* pool);

}  // namespace ort
