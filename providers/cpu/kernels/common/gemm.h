// Single-precision matrix multiply used by MatMul, Gemm, Conv (im2col), RNN cells and others:
//   C[M,N] = alpha * op(A)[M,K] * op(B)[K,N] + beta * C
// Row-major with leading dimensions; op() transposes when asked. beta == 0 ignores C's contents
// (it may hold garbage or NaN).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "lib/common/float16.h"
#include "lib/framework/op_kernel.h"
#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/weight_buffer.h"

namespace ort {

void Sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
           const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
           int64_t ldc, ThreadPool* pool);

struct SgemmKernel;

/// op(B) of Sgemm packed once into the panels of an Sgemm kernel, so that products with a
/// constant B (weights) skip packing it on every run; ONNX Runtime calls this pre-packing.
class PackedSgemmB {
 public:
  /// Packs op(B), k x n, stored row-major with leading dimension ldb, for `kernel`.
  PackedSgemmB(const SgemmKernel& kernel, bool transpose_b, int64_t k, int64_t n, const float* b,
               int64_t ldb);
  /// The same for the kernel Sgemm uses for n columns (BestSgemmKernelFor(n)).
  PackedSgemmB(bool transpose_b, int64_t k, int64_t n, const float* b, int64_t ldb);

  int64_t k() const { return k_; }
  int64_t n() const { return n_; }
  const SgemmKernel& kernel() const { return *kernel_; }
  /// Columns of every packed depth block: n rounded up to the kernel's panel width.
  int64_t padded_n() const { return padded_n_; }
  /// Depth block `p0` (a multiple of the kernel's depth step) starts at data() + p0 * padded_n();
  /// inside it the panels of kernel().nr columns follow each other, each stored row by row.
  const float* data() const { return data_; }

 private:
  const SgemmKernel* kernel_;
  int64_t k_;
  int64_t n_;
  int64_t padded_n_;
  WeightBuffer storage_;
  const float* data_;
};

/// Input `index` of the kernel being created, packed as op(B) (its transpose when `transpose`),
/// when it is a constant, non-empty, 2-D float tensor; null otherwise.
std::unique_ptr<PackedSgemmB> PackConstantB(const KernelInfo& info, size_t index, bool transpose);

/// Sgemm with a pre-packed op(B): C[M,N] = alpha * op(A)[M,K] * B[K,N] + beta * C.
void SgemmPackedB(bool transpose_a, int64_t m, float alpha, const float* a, int64_t lda,
                  const PackedSgemmB& b, float beta, float* c, int64_t ldc, ThreadPool* pool);

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
