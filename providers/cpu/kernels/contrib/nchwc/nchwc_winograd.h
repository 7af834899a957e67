// Winograd F(4x4, 3x3) for NCHWc convolutions (Lavin and Gray, "Fast Algorithms for
// Convolutional Neural Networks"): each 4x4 output tile comes from a 6x6 input tile through
// 36 elementwise products per channel pair instead of 144 multiply-adds, so a 3x3 convolution
// with stride 1 does 4x fewer multiplications. The input tiles are transformed (B^T d B), the
// 36 products become 36 pointwise convolutions over all tiles (the NCHWc 1x1 microkernels, with
// filters G g G^T transformed once), and the output transform (A^T m A) adds bias and sum and
// clamps. ONNX Runtime's CPU provider has no Winograd path; this is where 3x3 layers beat it.
// The interpolation points are 0, 1, -1, 1/2, -2 rather than Lavin and Gray's 0, +-1, +-2: the
// same exact algorithm, with about 40% less float32 rounding error (Barabasz et al., "Error
// analysis and improving the accuracy of Winograd convolution for deep neural networks").
#pragma once

#include <cstdint>

#include "lib/threading/thread_pool.h"
#include "providers/cpu/kernels/common/fused_activation.h"
#include "providers/cpu/kernels/common/weight_buffer.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

namespace ort {

/// Points of the transformed tile: 6x6.
constexpr int64_t kWinogradPoints = 36;

/// Input channels whose products are summed from zero before joining a point's running sum.
/// The output transform magnifies the rounding of those sums: one float32 sum over all 256
/// channels of a 3x3 layer gave 4.9x the RMS error of the im2col kernels (1.7e-6 vs 3.5e-7 of
/// the output's RMS), which Mask R-CNN's mask head carried past rtol 1e-3; sums of 32 give
/// 2.2x (7.6e-7) for about 10% more time on such layers (16: 2.0x, 30% more). Sums of 32 still
/// took Inception v3's logits 8.7e-4 from ORT's at most (torch's float32 rounding: 2.2e-4; ORT's
/// own distance from torch: 2.9e-4), sums of 16 6.5e-4, for 3-6% more time at 1 thread on
/// Inception v3, ResNet-50, DenseNet-121 and a UNet (a Sapphire Rapids core).
constexpr int64_t kWinogradChannelsPerSum = 16;

/// Filters of one 3x3 NCHWc convolution transformed for Winograd F(4x4, 3x3), laid out as 36
/// pointwise NCHWc filter sets, each split by input channel blocks into parts of part_blocks()
/// blocks (the last may be shorter) with their own layout: [36][part][filters / B][blocks][B][B].
class NchwcWinogradFilters {
 public:
  /// Transforms OIHWBiBo filters `w` ([filters / B][channels / B][3][3][B][B]) of block `block`;
  /// throws std::bad_alloc when the transform does not fit in memory.
  NchwcWinogradFilters(const float* w, int64_t filters, int64_t channels, int64_t block);

  int64_t filters() const { return filters_; }
  int64_t channels() const { return channels_; }
  int64_t part_blocks() const { return part_blocks_; }
  const float* data() const { return u_.data(); }

 private:
  int64_t filters_;
  int64_t channels_;
  int64_t part_blocks_;
  WeightBuffer u_;
};

/// True when the convolution `args` (3x3, stride 1, dilation 1, NCHWc input; its channel and
/// filter blocks set) of `batch` images runs faster as Winograd than with `kernels`' direct
/// ones: enough tiles to repay the transforms (kernels.winograd_min_tiles), and more where the
/// transform (four times the filters) is large.
bool WinogradPays(const NchwcConvKernels& kernels, const NchwcConvArgs& args, int64_t batch);

/// Computes the convolution `args` of `batch` images with `filters` on `pool` (may be null);
/// `activation` (when not folded into the args' clamp) is applied to each finished tile row.
/// Tiles run in chunks whose transforms stay in cache, in per-thread scratch.
void RunNchwcWinograd(const NchwcConvKernels& kernels, const NchwcConvArgs& args, int64_t batch,
                      const NchwcWinogradFilters& filters, const FusedActivation* activation,
                      ThreadPool* pool);

}  // namespace ort
