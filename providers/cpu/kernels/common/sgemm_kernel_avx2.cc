// SGEMM microkernel for AVX2 and FMA: 6 rows x 16 columns of C in 12 of the 16 ymm registers, which
// leaves room for the two B vectors and the A broadcast without spilling.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/common/sgemm_kernel.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma")

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx2.inc"
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
