// NCHWc convolution microkernels for AVX2 with FMA: blocks of 8 channels, 2 filter blocks x 6
// pixels of accumulators (12 of the 16 ymm registers).
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

#include "providers/cpu/kernels/common/isa_target_avx2_begin.inc"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_avx2.inc"
constexpr int kMaxOb = 2;
constexpr int kMaxTailOb = 3;
constexpr int kTilePx = 6;
constexpr int kAccumulators = 12;
constexpr int kDwTilePx = 6;

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_depthwise_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd_kernel.inc"

}  // namespace

const NchwcConvKernels nchwc_conv_f32_b8_avx2{
    Vec::kB,        kMaxOb,           kMaxTailOb,       true,
    ConvRow,        ConvPixels,       DepthwiseRow,     DepthwiseBand,
    NarrowGroupRow, WinogradInputRow, WinogradOutputRow};

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
