// The attention tile kernels (attention_tile.h) for AVX2+FMA: 8 floats per ymm register.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/common/attention_tile.h"

#include "providers/cpu/kernels/common/isa_target_avx2_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx2.inc"

#include "providers/cpu/kernels/common/attention_tile_kernel.inc"

}  // namespace

const AttentionTileKernel attention_tile_f32_avx2{Vec::kB, Scores, Context};

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
