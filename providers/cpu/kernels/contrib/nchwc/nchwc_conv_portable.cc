// NCHWc convolution microkernels in plain C++ for CPUs without AVX2 (blocks of 8 channels, which
// the compiler maps to SSE pairs).
#include <algorithm>
#include <bit>
#include <cstdint>

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

namespace ort {
namespace {

#include "providers/cpu/kernels/common/simd_vec_portable.inc"
using Vec = PortableVec<8>;
constexpr int kMaxOb = 1;
constexpr int kTilePx = 4;
constexpr int kAccumulators = kMaxOb * kTilePx;
constexpr int kDwTilePx = 4;
constexpr int64_t kFilterPrefetchLinesPerTile = 0;
constexpr int64_t kWinogradMinTiles = 16;

#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_depthwise_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_narrow_group_kernel.inc"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd_kernel.inc"

}  // namespace

const NchwcConvKernels nchwc_conv_f32_b8_portable{
    Vec::kB,    kMaxOb,       kMaxOb,        true,           kWinogradMinTiles, ConvRow,
    ConvPixels, DepthwiseRow, DepthwiseBand, NarrowGroupRow, WinogradInputRow,  WinogradOutputRow};

}  // namespace ort
