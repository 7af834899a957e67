// The blocking of single-precision GEMM (gemm_driver.h) around a microkernel's tile.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "providers/cpu/kernels/common/gemm_driver.h"
#include "providers/cpu/kernels/common/sgemm_kernel.h"

namespace ort::gemm_detail {

constexpr int64_t kSgemmKc = 768;
constexpr int64_t kSgemmMcTarget = 192;
constexpr int64_t kSgemmNc = 512;

/// Sgemm's blocking around each kernel of kSgemmKernels, in its order: the kernel's tile, with Mc
/// and Nc rounded up to whole tiles. Worked out at compile time, so that picking a kernel per call
/// costs no division. Every kernel reads a row-major A in place: packing it cost more than it
/// saved in the tile's loop (AVX2 on a Zen 3: Swin's 6272 x 96 x 96 GEMMs spent 15-30% of their
/// time packing; AVX-512 on a Sapphire Rapids core: 0.56-0.86x the time of packed A on Swin,
/// Whisper, BERT and ResNet shapes, alternating call by call).
inline constexpr auto kSgemmPlans = [] {
  std::array<GemmPlan<float>, std::size(kSgemmKernels)> plans{};
  for (size_t i = 0; i < plans.size(); ++i) {
    const SgemmKernel& kernel = kSgemmKernels[i];
    const int64_t mc = (kSgemmMcTarget + kernel.mr - 1) / kernel.mr * kernel.mr;
    const int64_t nc = (kSgemmNc + kernel.nr - 1) / kernel.nr * kernel.nr;
    plans[i] = GemmPlan<float>{kernel.mr, kernel.nr, kSgemmKc, mc, nc, true, kernel.block};
  }
  return plans;
}();

/// The plan of `kernel`, an entry of kSgemmKernels like every SgemmKernel.
inline const GemmPlan<float>& SgemmPlan(const SgemmKernel& kernel) {
  return kSgemmPlans[static_cast<size_t>(&kernel - kSgemmKernels)];
}

}  // namespace ort::gemm_detail
