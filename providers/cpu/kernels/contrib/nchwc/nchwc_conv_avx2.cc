// NCHWc convolution microkernels for AVX2 with FMA: blocks of 8 channels, 2 filter blocks x 6
// pixels of accumulators (12 of the 16 ymm registers).
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma")

namespace ort {
namespace {

struct Vec {
  using V = __m256;
  static constexpr int kB = 8;
  static V Zero() { return _mm256_setzero_ps(); }
  static V Load(const float* p) { return _mm256_loadu_ps(p); }
  static void Store(float* p, V v) { _mm256_storeu_ps(p, v); }
  static V Set1(float f) { return _mm256_set1_ps(f); }
  static V Add(V a, V b) { return _mm256_add_ps(a, b); }
  static V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
};
constexpr int kMaxOb = 2;
constexpr int kTilePx = 6;
constexpr int kDwTilePx = 6;

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.inc"

}  // namespace

const NchwcConvKernels& NchwcConvKernelsAvx2() {
  static const NchwcConvKernels kernels{Vec::kB, kMaxOb, ConvRow, DepthwiseRow};
  return kernels;
}

}  // namespace ort

#pragma GCC pop_options
