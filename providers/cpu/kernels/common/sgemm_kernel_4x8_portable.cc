// SGEMM microkernel in plain C++ for CPUs without AVX2: a 4 x 8 tile in 4-float vectors, which the
// compiler maps to SSE registers.
#include <bit>
#include <cstdint>

#include "providers/cpu/kernels/common/sgemm_kernel.h"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_portable.inc"
using Vec = PortableVec<4>;
constexpr const SgemmKernel& kKernel = SgemmKernelOf("gemm_f32_4x8_portable");
static_assert(kKernel.nr % Vec::kB == 0, "the tile is whole vectors wide");
constexpr int kMr = kKernel.mr;
constexpr int kNv = kKernel.nr / Vec::kB;

#include "providers/cpu/kernels/common/sgemm_kernel_body.inc"

}  // namespace

void gemm_f32_4x8_portable(int64_t rows, int64_t cols, int64_t depth, const float* a, int64_t lda,
                           const float* packed_b, float beta, bool first, float* c, int64_t ldc) {
  Block(rows, cols, depth, a, lda, packed_b, beta, first, c, ldc);
}

}  // namespace ort
