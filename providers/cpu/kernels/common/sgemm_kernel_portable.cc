// SGEMM microkernel in plain C++ for CPUs without AVX2 (4 x 8 tile in 4-float vectors, which the
// compiler maps to SSE registers), and the choice among the instruction sets.
#include <cstdint>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/sgemm_kernel.h"

namespace ort {
namespace {

struct Vec {
  struct V {
    float v[4];
  };
  static constexpr int kB = 4;
  static V Zero() { return V{}; }
  static V Load(const float* p) {
    V r;
    for (int i = 0; i < kB; ++i) r.v[i] = p[i];
    return r;
  }
  static void Store(float* p, V a) {
    for (int i = 0; i < kB; ++i) p[i] = a.v[i];
  }
  static V Set1(float f) {
    V r;
    for (int i = 0; i < kB; ++i) r.v[i] = f;
    return r;
  }
  static V Add(V a, V b) {
    for (int i = 0; i < kB; ++i) a.v[i] += b.v[i];
    return a;
  }
  static V Fma(V a, V b, V c) {
    for (int i = 0; i < kB; ++i) c.v[i] += a.v[i] * b.v[i];
    return c;
  }
};
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

}  // namespace ort
