// The NCHWc pooling row kernels: one set per instruction set, listed once in
// nchwc_pool_kernels.inc, each reducing a whole channel block per vector instruction; the pool
// kernels (nchwc_pool.cc) spread rows over the thread pool.
#pragma once

#include <cstdint>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_window.h"

namespace ort {

/// One 2-D pooling window over blocked planes [H, W, B].
struct NchwcPoolArgs : NchwcWindow {
  bool count_include_pad = false;  // AveragePool's divisor counts padding (not past the end)
};

/// One instruction set's kernels; `block` is its vector width in floats.
struct NchwcPoolKernels {
  int64_t block;
  /// Writes output row `oh` of one blocked plane: the maximum, or the average, of each window.
  void (*max_row)(const NchwcPoolArgs& args, const float* plane, int64_t oh, float* row);
  void (*average_row)(const NchwcPoolArgs& args, const float* plane, int64_t oh, float* row);
};

#define ORT_NCHWC_POOL_KERNELS(name, isa) extern const NchwcPoolKernels name;
#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernels.inc"
#undef ORT_NCHWC_POOL_KERNELS

/// Every set of NCHWc pooling kernels, in the order of nchwc_pool_kernels.inc.
inline constexpr IsaKernel<NchwcPoolKernels> kNchwcPoolKernels[] = {
#define ORT_NCHWC_POOL_KERNELS(name, isa) {#name, CpuIsa::isa, &name},
#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernels.inc"
#undef ORT_NCHWC_POOL_KERNELS
};

/// The kernels of the best instruction set MaxCpuIsa() allows; their block is NchwcBlockSize().
inline const NchwcPoolKernels& BestNchwcPoolKernels() {
  // Chosen once: every node runs on the same set, and MaxCpuIsa() never changes.
  static const NchwcPoolKernels& best = *BestIsaEntry(kNchwcPoolKernels).kernel;
  return best;
}

}  // namespace ort
