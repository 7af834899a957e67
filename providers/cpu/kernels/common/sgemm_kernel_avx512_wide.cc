// SGEMM microkernel for AVX-512F with a wide tile: 8 rows x 48 columns of C in 24 zmm
// registers. Each depth step loads 3 B vectors and 8 A broadcasts for 24 multiply-adds (the
// 14 x 32 tile needs 16 loads for 28), and short matrices such as BERT's 128 rows split into
// whole 8-row panels; Sgemm picks it when N pads to 48 no worse than to 32.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/common/sgemm_kernel.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx512.inc"
constexpr int kMr = 8;
constexpr int kNv = 3;

#include "providers/cpu/kernels/common/sgemm_kernel.inc"

}  // namespace

const SgemmKernel& SgemmKernelAvx512Wide() {
  static const SgemmKernel kernel{"avx512_8x48", kMr, kNr, Block};
  return kernel;
}

}  // namespace ort

#pragma GCC pop_options
