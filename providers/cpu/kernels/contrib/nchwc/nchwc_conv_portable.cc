// NCHWc convolution microkernels in plain C++ for CPUs without AVX2 (blocks of 8 channels, which
// the compiler maps to SSE pairs), and the choice among the instruction sets.
#include <cstdint>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_portable.inc"
using Vec = PortableVec<8>;
constexpr int kMaxOb = 1;
constexpr int kTilePx = 4;
constexpr int kDwTilePx = 4;

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd_kernel.inc"

}  // namespace

const NchwcConvKernels& NchwcConvKernelsPortable() {
  static const NchwcConvKernels kernels{Vec::kB,      kMaxOb,           ConvRow,
                                        DepthwiseRow, WinogradInputRow, WinogradOutputRow};
  return kernels;
}

const NchwcConvKernels& BestNchwcConvKernels() {
  static const NchwcConvKernels& best = []() -> const NchwcConvKernels& {
    // MaxCpuIsa() also decides NchwcBlockSize(), so the kernels' block always matches it.
    switch (MaxCpuIsa()) {
      case CpuIsa::kAvx512:
        return NchwcConvKernelsAvx512();
      case CpuIsa::kAvx2:
        return NchwcConvKernelsAvx2();
      case CpuIsa::kPortable:
        break;
    }
    return NchwcConvKernelsPortable();
  }();
  return best;
}

}  // namespace ort
