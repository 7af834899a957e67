// NCHWc pooling row kernels in plain C++ for CPUs without AVX2 (blocks of 8 channels), and the
// choice among the instruction sets.
#include <cstdint>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.h"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_portable.inc"
using Vec = PortableVec<8>;

#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.inc"

}  // namespace

const NchwcPoolKernels& NchwcPoolKernelsPortable() {
  static const NchwcPoolKernels kernels{Vec::kB, MaxPoolRow, AveragePoolRow};
  return kernels;
}

const NchwcPoolKernels& BestNchwcPoolKernels() {
  static const NchwcPoolKernels& best = []() -> const NchwcPoolKernels& {
    switch (MaxCpuIsa()) {
      case CpuIsa::kAvx512:
        return NchwcPoolKernelsAvx512();
      case CpuIsa::kAvx2:
        return NchwcPoolKernelsAvx2();
      case CpuIsa::kPortable:
        break;
    }
    return NchwcPoolKernelsPortable();
  }();
  return best;
}

}  // namespace ort
