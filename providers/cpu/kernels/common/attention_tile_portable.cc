// The attention tile kernels (attention_tile.h) in plain C++ for CPUs without AVX2 (8 floats,
// SSE registers).
#include <bit>
#include <cstdint>

#include "providers/cpu/kernels/common/attention_tile.h"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_portable.inc"
using Vec = PortableVec<8>;

#include "providers/cpu/kernels/common/attention_tile_kernel.inc"

}  // namespace

const AttentionTileKernel attention_tile_f32_portable{Vec::kB, Scores, Context};

}  // namespace ort
