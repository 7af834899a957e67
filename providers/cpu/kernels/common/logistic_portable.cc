// The logistic kernel (logistic.h) in plain C++ for CPUs without AVX2 (8 floats, SSE registers).
#include <algorithm>
#include <bit>
#include <cstdint>

#include "providers/cpu/kernels/common/logistic.h"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_portable.inc"
using Vec = PortableVec<8>;

#include "providers/cpu/kernels/common/logistic_kernel.inc"

}  // namespace

const LogisticKernel logistic_f32_portable{LogisticRun};

}  // namespace ort
