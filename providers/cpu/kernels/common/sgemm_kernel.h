// The single-precision GEMM microkernels: one set per instruction set (sgemm_kernel_avx512.cc,
// sgemm_kernel_avx2.cc, sgemm_kernel_portable.cc) sharing the body in sgemm_kernel.inc. Sgemm
// (gemm.cc) packs blocks of op(A) and op(B) into panels of the kernel's tile and hands each
// packed block to the kernel, which sweeps register tiles over it.
#pragma once

#include <cstdint>

#include "lib/threading/thread_pool.h"

namespace ort {

/// One instruction set's microkernel and its register tile.
struct SgemmKernel {
  const char* name;
  /// Rows of C one register tile covers; packed A panels hold this many rows.
  int64_t mr;
  /// Columns of C one register tile covers; packed B panels hold this many columns.
  int64_t nr;
  /// C[rows, cols] (row stride ldc) gets the product of a packed A block (ceil(rows / mr)
  /// panels of depth x mr, column by column, zero past `rows`) and a packed B block
  /// (ceil(cols / nr) panels of depth x nr, row by row, zero past `cols`). With `first` the
  /// product replaces C (beta == 0, ignoring C's contents) or is added to beta * C; otherwise it
  /// is added to C.
  void (*block)(int64_t rows, int64_t cols, int64_t depth, const float* packed_a,
                const float* packed_b, float beta, bool first, float* c, int64_t ldc);
};

const SgemmKernel& SgemmKernelAvx512();      // 14 x 32
const SgemmKernel& SgemmKernelAvx512Wide();  // 8 x 48
const SgemmKernel& SgemmKernelAvx2();
const SgemmKernel& SgemmKernelPortable();

/// The kernel of the best instruction set that this CPU has and MaxCpuIsa() allows.
const SgemmKernel& BestSgemmKernel();

/// The best kernel for products with `n` columns: on AVX-512 the 8 x 48 tile unless padding n
/// to 48 columns wastes more than padding it to 32 (n = 64 or 128 would compute 96 or 144).
const SgemmKernel& BestSgemmKernelFor(int64_t n);

/// Sgemm (gemm.h) through the given kernel, which the CPU must support; for tests and
/// benchmarks that compare instruction sets.
void SgemmWithKernel(const SgemmKernel& kernel, bool transpose_a, bool transpose_b, int64_t m,
                     int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
                     int64_t ldb, float beta, float* c, int64_t ldc, ThreadPool* pool);

}  // namespace ort
