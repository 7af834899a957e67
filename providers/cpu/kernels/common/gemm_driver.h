// The cache-blocked GEMM driver every element type shares (GotoBLAS style): a task owns an
// Mc x Nc block of C and walks K in steps of Kc. Per step it packs an Mc x Kc block of A (kept in
// L2) into panels of Mr rows, unless the plan's kernel reads a row-major A in place (direct_a),
// and a Kc x Nc block of B into panels of Nr columns; one B panel (Kc x Nr) stays in L1 while the
// microkernel sweeps every A panel past it. Float takes Mr and Nr
// from its microkernel (sgemm_plan.h), double from its portable one (gemm_double.cc); the driver is
// instantiated for both in gemm_driver.cc.
#pragma once

#include <cstdint>

#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/gemm_view.h"

namespace ort::gemm_detail {

/// A microkernel over packed B, with the contract of SgemmBlockFn (sgemm_kernel.h).
template <typename T>
using BlockFn = void (*)(int64_t rows, int64_t cols, int64_t depth, const T* a, int64_t lda,
                         const T* packed_b, T beta, bool first, T* c, int64_t ldc);

/// The register tile (mr x nr), cache blocks (kc, mc, nc) and microkernel of one GEMM.
template <typename T>
struct GemmPlan {
  int64_t mr;
  int64_t nr;
  int64_t kc;
  int64_t mc;     // a multiple of mr, so only the last row block has a partial panel
  int64_t nc;     // a multiple of nr
  bool direct_a;  // `block` reads a row-major A, scaled by 1, in place instead of packed
  BlockFn<T> block;
};

/// op(B) either as a matrix to pack block by block or already packed whole (PackedSgemmB's
/// layout: depth block p0 at packed + p0 * packed_stride).
template <typename T>
struct OperandB {
  MatrixView<T> view;
  const T* packed = nullptr;
  int64_t packed_stride = 0;
};

/// C = alpha * op(A) * op(B) + beta * C (gemm.h's contract) with the blocking and microkernel of
/// `plan`; op(B) packed per block or pre-packed (`operand_b`).
template <typename T>
void Gemm(const GemmPlan<T>& plan, bool transpose_a, int64_t m, int64_t n, int64_t k, T alpha,
          const T* a, int64_t lda, const OperandB<T>& operand_b, T beta, T* c, int64_t ldc,
          ThreadPool* pool);

}  // namespace ort::gemm_detail
