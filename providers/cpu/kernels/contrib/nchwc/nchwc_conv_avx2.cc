// NCHWc convolution microkernels for AVX2 with FMA: blocks of 8 channels, tiles of 12 sums (of
// the 16 ymm registers) from 4 filter blocks x 3 pixels to 1 x 6. 1x1 convolutions take four
// blocks per call, as MLAS does: each input value is then read once per 4 filter blocks instead
// of 2. On a Zen 3, each node alternating between 2 and 4 blocks per call in one process, sums of
// node minimums at 1 thread: DenseNet-121 0.94, GoogLeNet 0.95, SqueezeNet 0.94, MobileNet v2
// 0.97; separate processes, p50 of the whole model: RegNet-X 1.6GF 0.90, ResNet-50 0.85. Wider
// windows keep two (kWindowOb; a 3-block tail). The 4 x 3 tiles of 1x1s over contiguous pixels
// and the 2 x 6 and 3 x 4 tiles of windows run in assembly (nchwc_conv_asm_avx2.inc).
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avx2_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx2.inc"
constexpr int kMaxOb = 4;
constexpr int kWindowOb = 2;
constexpr int kTilePx = 6;
constexpr int kAccumulators = 12;
constexpr int kDwTilePx = 6;
constexpr int64_t kFilterPrefetchLinesPerTile = 0;  // measured on a Zen 3 uncapped only
// Winograd from a 14x14 image (16 tiles) on: without it there, on AVX2 (measured on a Sapphire
// Rapids core at batch 1), GoogLeNet ran 1.05x slower and ResNet-50 1.02x (DenseNet-121 0.96x).
constexpr int64_t kWinogradMinTiles = 16;

// Before the kernel bodies, which run their tiles where these fit.
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_asm_avx2.inc"

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_depthwise_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_narrow_group_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd_kernel.inc"

}  // namespace

const NchwcConvKernels nchwc_conv_f32_b8_avx2{
    Vec::kB,    kMaxOb,       kWindowOb,     true,           kWinogradMinTiles, ConvRow,
    ConvPixels, DepthwiseRow, DepthwiseBand, NarrowGroupRow, WinogradInputRow,  WinogradOutputRow};

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
