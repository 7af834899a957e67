// Single-precision GEMM (gemm.h) with op(B) packed per call, and the choice of its microkernel.
#include <cstdint>

#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/common/sgemm_kernel.h"
#include "providers/cpu/kernels/common/sgemm_plan.h"

namespace ort {

using gemm_detail::Gemm;
using gemm_detail::MakeView;
using gemm_detail::OperandB;
using gemm_detail::SgemmPlan;

const SgemmKernel& BestSgemmKernelFor(int64_t n) {
  return BestIsaEntry(kSgemmKernels, [n](const SgemmKernel& kernel) {
    return (n + kernel.nr - 1) / kernel.nr * kernel.nr;
  });
}

void SgemmWithKernel(const SgemmKernel& kernel, bool transpose_a, bool transpose_b, int64_t m,
                     int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
                     int64_t ldb, float beta, float* c, int64_t ldc, ThreadPool* pool) {
  Gemm<float>(SgemmPlan(kernel), transpose_a, m, n, k, alpha, a, lda,
              OperandB<float>{MakeView(b, ldb, transpose_b)}, beta, c, ldc, pool);
}

void Sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha,
           const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
           int64_t ldc, ThreadPool* pool) {
  SgemmWithKernel(BestSgemmKernelFor(n), transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb,
                  beta, c, ldc, pool);
}

}  // namespace ort
