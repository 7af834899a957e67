// SGEMM microkernel in plain C++ for CPUs without AVX2 (4 x 8 tile in 4-float vectors, which the
// compiler maps to SSE registers), and the choice among the instruction sets.
#include <cstdint>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/sgemm_kernel.h"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_portable.inc"
using Vec = PortableVec<4>;
constexpr int kMr = 4;
constexpr int kNv = 2;

#include "providers/cpu/kernels/common/sgemm_kernel.inc"

}  // namespace

const SgemmKernel& SgemmKernelPortable() {
  static const SgemmKernel kernel{"portable", kMr, kNr, Block};
  return kernel;
}

const SgemmKernel& BestSgemmKernel() {
  static const SgemmKernel& best = []() -> const SgemmKernel& {
    switch (MaxCpuIsa()) {
      case CpuIsa::kAvx512:
        return SgemmKernelAvx512();
      case CpuIsa::kAvx2:
        return SgemmKernelAvx2();
      case CpuIsa::kPortable:
        break;
    }
    return SgemmKernelPortable();
  }();
  return best;
}

const SgemmKernel& BestSgemmKernelFor(int64_t n) {
  const SgemmKernel& best = BestSgemmKernel();
  if (&best != &SgemmKernelAvx512()) return best;
  const SgemmKernel& wide = SgemmKernelAvx512Wide();
  const auto padded = [n](int64_t nr) { return (n + nr - 1) / nr * nr; };
  return padded(wide.nr) <= padded(best.nr) ? wide : best;
}

}  // namespace ort
