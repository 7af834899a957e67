// NCHWc convolution microkernels for AVX-512F: blocks of 16 channels, 4 filter blocks x 6 pixels
// of accumulators (24 of the 32 zmm registers).
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")

namespace ort {
namespace {

struct Vec {
  using V = __m512;
  static constexpr int kB = 16;
  static V Zero() { return _mm512_setzero_ps(); }
  static V Load(const float* p) { return _mm512_loadu_ps(p); }
  static void Store(float* p, V v) { _mm512_storeu_ps(p, v); }
  static V Set1(float f) { return _mm512_set1_ps(f); }
  static V Add(V a, V b) { return _mm512_add_ps(a, b); }
  static V Fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
};
constexpr int kMaxOb = 4;
constexpr int kTilePx = 6;
constexpr int kDwTilePx = 8;

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.inc"

}  // namespace

const NchwcConvKernels& NchwcConvKernelsAvx512() {
  static const NchwcConvKernels kernels{Vec::kB, kMaxOb, ConvRow, DepthwiseRow};
  return kernels;
}

}  // namespace ort

#pragma GCC pop_options
