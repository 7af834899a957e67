// The two products of attention over short sequences (Swin's and MaxViT's 49-token windows, a few
// hundred heads of 32 per layer), written against the ISA vectors: scores = Q K^T of a block of
// query rows and context = P V, each from operands laid out once per head in padded scratch, so
// that no product packs anything per call. Through Sgemm a 49 x 49 x 32 product took 5-7 us,
// three times its arithmetic, most of it packing and partial tiles.
#pragma once

#include <cstdint>

#include "providers/cpu/kernels/common/isa_dispatch.h"

namespace ort {

/// One instruction set's kernels; `block` is its vector width in floats. `width` below is a
/// multiple of block up to kAttentionTileMaxVectors blocks.
struct AttentionTileKernel {
  int64_t block;
  /// scores[r][0, width) = scale * sum_d q[r][d] * kt[d][0, width) for r < rows: q is
  /// [rows, depth] with row stride q_stride, kt [depth, width] (K transposed, zero beyond the
  /// keys), scores [rows, width] with row stride width.
  void (*scores)(const float* q, int64_t q_stride, int64_t rows, int64_t depth, const float* kt,
                 int64_t width, float scale, float* scores);
  /// out[r][0, width) = sum_t p[r][t] * v[t][0, width) for r < rows, t < keys: p [rows, keys] with
  /// row stride p_stride, v [keys, width] with row stride v_stride, out with row stride
  /// out_stride.
  void (*context)(const float* p, int64_t p_stride, int64_t rows, int64_t keys, const float* v,
                  int64_t v_stride, int64_t width, float* out, int64_t out_stride);
};

/// The widest operand, in vectors, the kernels take.
inline constexpr int64_t kAttentionTileMaxVectors = 8;

#define ORT_ATTENTION_TILE_KERNEL(name, isa) extern const AttentionTileKernel name;
#include "providers/cpu/kernels/common/attention_tile_kernels.inc"
#undef ORT_ATTENTION_TILE_KERNEL

/// Every attention tile kernel, in the order of attention_tile_kernels.inc.
inline constexpr IsaKernel<AttentionTileKernel> kAttentionTileKernels[] = {
#define ORT_ATTENTION_TILE_KERNEL(name, isa) {#name, CpuIsa::isa, &name},
#include "providers/cpu/kernels/common/attention_tile_kernels.inc"
#undef ORT_ATTENTION_TILE_KERNEL
};

/// The attention tile kernel of the best instruction set MaxCpuIsa() allows.
inline const AttentionTileKernel& BestAttentionTileKernel() {
  static const AttentionTileKernel& best = *BestIsaEntry(kAttentionTileKernels).kernel;
  return best;
}

}  // namespace ort
