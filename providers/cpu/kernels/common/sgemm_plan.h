// The blocking of single-precision GEMM (gemm_driver.h) around a microkernel's tile.
#pragma once

#include <cstdint>

#include "providers/cpu/kernels/common/gemm_driver.h"
#include "providers/cpu/kernels/common/sgemm_kernel.h"

namespace ort::gemm_detail {

constexpr int64_t kSgemmKc = 768;
constexpr int64_t kSgemmMcTarget = 192;
constexpr int64_t kSgemmNc = 512;

/// Sgemm's blocking around `kernel`: its tile, with Mc and Nc rounded up to whole tiles.
inline GemmPlan<float> SgemmPlan(const SgemmKernel& kernel) {
  const int64_t mc = (kSgemmMcTarget + kernel.mr - 1) / kernel.mr * kernel.mr;
  const int64_t nc = (kSgemmNc + kernel.nr - 1) / kernel.nr * kernel.nr;
  return GemmPlan<float>{kernel.mr, kernel.nr, kSgemmKc, mc, nc, kernel.block};
}

}  // namespace ort::gemm_detail
