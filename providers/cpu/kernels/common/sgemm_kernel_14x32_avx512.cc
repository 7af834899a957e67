// SGEMM microkernel for AVX-512F: 14 rows x 32 columns of C in 28 of the 32 zmm registers, which
// leaves room for the two B vectors and the A broadcast without spilling.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/common/sgemm_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avx512_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx512.inc"
constexpr const SgemmKernel& kKernel = SgemmKernelOf("gemm_f32_14x32_avx512");
static_assert(kKernel.nr % Vec::kB == 0, "the tile is whole vectors wide");
constexpr int kMr = kKernel.mr;
constexpr int kNv = kKernel.nr / Vec::kB;

#include "providers/cpu/kernels/common/sgemm_kernel_body.inc"

}  // namespace

void gemm_f32_14x32_avx512(int64_t rows, int64_t cols, int64_t depth, const float* a, int64_t lda,
                           const float* packed_b, float beta, bool first, float* c, int64_t ldc) {
  Block(rows, cols, depth, a, lda, packed_b, beta, first, c, ldc);
}

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
