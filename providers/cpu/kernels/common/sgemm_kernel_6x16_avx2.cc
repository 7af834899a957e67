// SGEMM microkernel for AVX2 and FMA: 6 rows x 16 columns of C in 12 of the 16 ymm registers, which
// leaves room for the two B vectors and the A broadcast without spilling.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/common/sgemm_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avx2_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx2.inc"
constexpr const SgemmKernel& kKernel = SgemmKernelOf("gemm_f32_6x16_avx2");
static_assert(kKernel.nr % Vec::kB == 0, "the tile is whole vectors wide");
constexpr int kMr = kKernel.mr;
constexpr int kNv = kKernel.nr / Vec::kB;

#include "providers/cpu/kernels/common/sgemm_kernel_body.inc"

}  // namespace

void gemm_f32_6x16_avx2(int64_t rows, int64_t cols, int64_t depth, const float* a, int64_t lda,
                        const float* packed_b, float beta, bool first, float* c, int64_t ldc) {
  Block(rows, cols, depth, a, lda, packed_b, beta, first, c, ldc);
}

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
