// SGEMM microkernel for AVX-512F: 14 rows x 32 columns of C in 28 of the 32 zmm registers, which
// leaves room for the two B vectors and the A broadcast without spilling.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/common/sgemm_kernel.h"

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
constexpr int kMr = 14;
constexpr int kNv = 2;

#include "providers/cpu/kernels/common/sgemm_kernel.inc"

}  // namespace

const SgemmKernel& SgemmKernelAvx512() {
  static const SgemmKernel kernel{"avx512", kMr, kNr, Block};
  return kernel;
}

}  // namespace ort

#pragma GCC pop_options
