// The single-precision GEMM microkernels, listed once in sgemm_kernels.inc; each is compiled for
// its instruction set in its own file around the shared body sgemm_kernel_body.inc. Sgemm
// (gemm.h) packs blocks of op(B), and of op(A) unless A is row-major and unscaled (the kernel
// then reads it in place), into panels of the kernel's tile and hands each block to the kernel,
// which sweeps register tiles over it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lib/common/cpu_info.h"
#include "lib/threading/thread_pool.h"

namespace ort {

/// C[rows, cols] (row stride ldc) gets the product of an A block and a packed B block
/// (ceil(cols / nr) panels of depth x nr, row by row, zero past `cols`). With lda == 0, `a` is
/// packed (ceil(rows / mr) panels of depth x mr, column by column, zero past `rows`); otherwise
/// it is A itself, `rows` rows of `depth` values, lda apart. With `first` the product replaces C
/// (beta == 0, ignoring C's contents) or is added to beta * C; otherwise it is added to C.
using SgemmBlockFn = void(int64_t rows, int64_t cols, int64_t depth, const float* a, int64_t lda,
                          const float* packed_b, float beta, bool first, float* c, int64_t ldc);

#define ORT_SGEMM_KERNEL(name, isa, mr, nr) SgemmBlockFn name;
#include "providers/cpu/kernels/common/sgemm_kernels.inc"
#undef ORT_SGEMM_KERNEL

/// One microkernel as sgemm_kernels.inc lists it; kSgemmKernels holds every one.
struct SgemmKernel {
  /// gemm_f32_<mr>x<nr>_<isa>.
  const char* name;
  /// The instruction set `block` is compiled for and needs.
  CpuIsa isa;
  /// Rows of C one register tile covers; packed A panels hold this many rows.
  int64_t mr;
  /// Columns of C one register tile covers; packed B panels hold this many columns.
  int64_t nr;
  SgemmBlockFn* block;
};

/// Every Sgemm microkernel, in the order of sgemm_kernels.inc.
inline constexpr SgemmKernel kSgemmKernels[] = {
#define ORT_SGEMM_KERNEL(name, isa, mr, nr) {#name, CpuIsa::isa, mr, nr, name},
#include "providers/cpu/kernels/common/sgemm_kernels.inc"
#undef ORT_SGEMM_KERNEL
};

/// The entry named `name` in kSgemmKernels, from which its file takes its tile; a name the list
/// lacks does not compile. Looked up by name, not by function address: sanitizer builds do not
/// let addresses of functions be compared in constant expressions.
consteval const SgemmKernel& SgemmKernelOf(std::string_view name) {
  size_t i = 0;
  while (kSgemmKernels[i].name != name) ++i;
  return kSgemmKernels[i];
}

/// The kernel Sgemm uses for products with `n` columns: among the kernels of the best
/// instruction set MaxCpuIsa() allows, the one whose nr pads n least, the earlier in the list on
/// ties (on AVX-512, 8 x 48 unless n = 64 or 128, which 14 x 32 pads to 64 or 128, not 96 or 144).
const SgemmKernel& BestSgemmKernelFor(int64_t n);

/// Sgemm (gemm.h) through the given kernel, which the CPU must support; for tests and
/// benchmarks that compare kernels.
void SgemmWithKernel(const SgemmKernel& kernel, bool transpose_a, bool transpose_b, int64_t m,
                     int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
                     int64_t ldb, float beta, float* c, int64_t ldc, ThreadPool* pool);

}  // namespace ort
