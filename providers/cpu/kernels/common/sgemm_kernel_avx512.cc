// SGEMM microkernel for AVX-512F: 14 rows x 32 columns of C in 28 of the 32 zmm registers, which
// leaves room for the two B vectors and the A broadcast without spilling.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/common/sgemm_kernel.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx512.inc"
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
