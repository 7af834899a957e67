// NCHWc convolution microkernels in plain C++ for CPUs without AVX2 (blocks of 8 channels, which
// the compiler maps to SSE pairs), and the choice among the instruction sets.
#include <cstdint>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

namespace ort {
namespace {

struct Vec {
  struct V {
    float v[8];
  };
  static constexpr int kB = 8;
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
constexpr int kMaxOb = 1;
constexpr int kTilePx = 4;
constexpr int kDwTilePx = 4;

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.inc"

}  // namespace

const NchwcConvKernels& NchwcConvKernelsPortable() {
  static const NchwcConvKernels kernels{Vec::kB, kMaxOb, ConvRow, DepthwiseRow};
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
