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

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_depthwise_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_narrow_group_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd_kernel.inc"

}  // namespace

const NchwcConvKernels nchwc_conv_f32_b16_avx512{
    Vec::kB,        kMaxOb,           kMaxOb,           false,
    ConvRow,        ConvPixels,       DepthwiseRow,     DepthwiseBand,
    NarrowGroupRow, WinogradInputRow, WinogradOutputRow};

}  // namespace ort

#include "providers/cpu/kernels/common/isa_target_end.inc"
