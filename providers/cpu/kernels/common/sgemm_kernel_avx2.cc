// SGEMM microkernel for AVX2 and FMA: 6 rows x 16 columns of C in 12 of the 16 ymm registers, which
// leaves room for the two B vectors and the A broadcast without spilling.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/common/sgemm_kernel.h"

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
constexpr int kMr = 6;
constexpr int kNv = 2;

#include "providers/cpu/kernels/common/sgemm_kernel.inc"

}  // namespace

const SgemmKernel& SgemmKernelAvx2() {
  static const SgemmKernel kernel{"avx2", kMr, kNr, Block};
  return kernel;
}

}  // namespace ort

#pragma GCC pop_options
