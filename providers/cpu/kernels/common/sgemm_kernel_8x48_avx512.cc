// SGEMM microkernel for AVX-512F with a wide tile: 8 rows x 48 columns of C in 24 zmm
// registers. Each depth step loads 3 B vectors and 8 A broadcasts for 24 multiply-adds (the
// 14 x 32 tile needs 16 loads for 28), and short matrices such as BERT's 128 rows split into
// whole 8-row panels; Sgemm picks it when N pads to 48 no worse than to 32.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/common/sgemm_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avx512_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx512.inc"
constexpr const SgemmKernel& kKernel = SgemmKernelOf("gemm_f32_8x48_avx512");
static_assert(kKernel.nr % Vec::kB == 0, "the tile is whole vectors wide");
constexpr int kMr = kKernel.mr;
constexpr int kNv = kKernel.nr / Vec::kB;

#include "providers/cpu/kernels/common/sgemm_kernel_body.inc"

}  // namespace

void gemm_f32_8x48_avx512(int64_t rows, int64_t cols, int64_t depth, const float* a, int64_t lda,
                          const float* packed_b, float beta, bool first, float* c, int64_t ldc) {
  Block(rows, cols, depth, a, lda, packed_b, beta, first, c, ldc);
}

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
