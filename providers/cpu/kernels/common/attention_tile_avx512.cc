// The attention tile kernels (attention_tile.h) for AVX-512F: 16 floats per zmm register.
#include <immintrin.h>

#include <cstdint>

#include "providers/cpu/kernels/common/attention_tile.h"

#include "providers/cpu/kernels/common/isa_target_avx512_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx512.inc"

#include "providers/cpu/kernels/common/attention_tile_kernel.inc"

}  // namespace

const AttentionTileKernel attention_tile_f32_avx512{Vec::kB, Scores, Context};

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
