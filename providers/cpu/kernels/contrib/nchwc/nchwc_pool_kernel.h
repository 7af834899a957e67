// The NCHWc pooling row kernels: one per instruction set (nchwc_pool_avx512.cc,
// nchwc_pool_avx2.cc, nchwc_pool_portable.cc), each reducing a whole channel block per vector
// instruction; the pool kernels (nchwc_pool.cc) spread rows over the thread pool.
#pragma once

#include <cstdint>

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

const NchwcPoolKernels& NchwcPoolKernelsAvx512();
const NchwcPoolKernels& NchwcPoolKernelsAvx2();
const NchwcPoolKernels& NchwcPoolKernelsPortable();

/// The kernels of the best instruction set of this CPU; their block is NchwcBlockSize().
const NchwcPoolKernels& BestNchwcPoolKernels();

}  // namespace ort
