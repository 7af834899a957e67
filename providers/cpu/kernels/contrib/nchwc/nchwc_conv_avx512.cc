// NCHWc convolution microkernels for AVX-512F: blocks of 16 channels, 4 filter blocks x 6 pixels
// of accumulators (24 of the 32 zmm registers).
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avx512_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx512.inc"
constexpr int kMaxOb = 4;
constexpr int kTilePx = 6;
constexpr int kAccumulators = 24;
constexpr int kDwTilePx = 8;
// A part of one 16-channel block has few tiles to spread its successor's 36 KB of 3x3 filters
// over: uncapped, a 384 -> 384 3x3 over 8x8 spent a quarter of its time waiting on prefetches.
// Capped at 8 lines, on a Sapphire Rapids core, models 1t: Inception v3 0.95x, FCN-ResNet-50
// 0.95x, ResNet-50 0.97x; without prefetching 0.93x, 0.96x and 1.00x, ResNeXt-50 1.02x.
constexpr int64_t kFilterPrefetchLinesPerTile = 8;
// Over a 14x14 image (16 tiles) these kernels beat Winograd's transforms: with it off there, on
// a Sapphire Rapids core at batch 1, DenseNet-121 (its 128 -> 32 3x3s) took 0.94x the time at
// 1 thread and 0.97x at 2, GoogLeNet 0.98x, ResNet-50 0.99x. At 32 tiles (batch 2) Winograd
// still wins: GoogLeNet 1.06x and ResNet-50 1.04x slower without it.
constexpr int64_t kWinogradMinTiles = 17;

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_depthwise_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_narrow_group_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd_kernel.inc"

}  // namespace

const NchwcConvKernels nchwc_conv_f32_b16_avx512{
    Vec::kB,    kMaxOb,       kMaxOb,        false,          kWinogradMinTiles, ConvRow,
    ConvPixels, DepthwiseRow, DepthwiseBand, NarrowGroupRow, WinogradInputRow,  WinogradOutputRow};

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
