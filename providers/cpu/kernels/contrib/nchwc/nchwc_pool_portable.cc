// NCHWc pooling row kernels in plain C++ for CPUs without AVX2 (blocks of 8 channels).
#include <bit>
#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.h"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_portable.inc"
using Vec = PortableVec<8>;

#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.inc"

}  // namespace

const NchwcPoolKernels nchwc_pool_f32_b8_portable{Vec::kB, MaxPoolRow, AveragePoolRow};

}  // namespace ort
