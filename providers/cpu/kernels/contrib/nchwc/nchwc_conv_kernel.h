// The NCHWc convolution microkernels: one set per instruction set, listed once in
// nchwc_conv_kernels.inc, each computing whole output rows in registers; the Conv kernel
// (nchwc_conv.cc) runs the set matching NchwcBlockSize() and spreads rows over the thread pool.
#pragma once

#include <cstdint>
#include <limits>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_window.h"

namespace ort {

/// One convolution of blocked tensors. Activations are [N, C / B, H, W, B] (B = `block`); the
/// input may instead be plain NCHW with fewer than B channels (`in_block` == 1). Filters are
/// [M / B, in_blocks, KH, KW, in_block, B] (ORT's OIHWBiBo, or OIHWBo when `in_block` is 1);
/// depthwise filters are [M / B, KH, KW, B] and read input block `ob` for output block `ob`.
struct NchwcConvArgs : NchwcWindow {
  const float* x = nullptr;     // image 0 of the input
  const float* w = nullptr;     // filter block 0
  const float* bias = nullptr;  // [M] or null
  const float* sum = nullptr;   // shaped like y, added before the activation, or null
  float* y = nullptr;           // image 0 of the output
  int64_t in_blocks = 0;        // input channel blocks (NCHWc) or input channels (NCHW)
  int64_t in_block = 0;         // B for NCHWc input, 1 for NCHW input
  int64_t out_blocks = 0;       // M / B
  // Channels (and filters) per group of a grouped convolution whose groups do not fill whole
  // blocks (narrow_group_row), else 0; `groups` of them, groups * group_channels channels.
  int64_t group_channels = 0;
  int64_t groups = 0;
  // Every output is clamped to [out_min, out_max] after bias and sum: fused Relu and Clip cost
  // two vector instructions per store instead of another pass over the output.
  float out_min = -std::numeric_limits<float>::infinity();
  float out_max = std::numeric_limits<float>::infinity();
  // Tiles ahead of the current one whose input the kernels prefetch into L1, 0 for none: a
  // row of dozens of channel blocks and tap rows reads as many streams at once, more than the
  // hardware prefetchers follow, and its tiles wait on memory.
  int64_t prefetch_tiles = 0;
  // The core's caches, which size the channel parts whose filters a call keeps in cache.
  int64_t l1_bytes = GetCpuCaches().l1_data_bytes;
  int64_t l2_bytes = GetCpuCaches().l2_bytes;
};

/// Rows whose taps read no padding run as runs of about this many pixels across row ends
/// (conv_pixels): a row of 7 or 14 columns otherwise ends in tiles of 3 or 4 pixels, whose few
/// sums leave the FMA units idle, and tiles that run across them need no per-row set-up. On a
/// Zen 3 (AVX2), medians of per-call ratios to rows for one image: 3x3s of 512 channels over 7x7
/// 0.87, 256 over 14x14 0.85, 64 over 56x56 0.83, SqueezeNet's 48 -> 192 over 13x13 0.81,
/// RegNet's groups of 24 channels over 14x14 0.92.
inline constexpr int64_t kNchwcRunPixels = 48;

/// Most groups one output block of a narrow-group convolution may span (4 at 4 channels per
/// group and B = 16).
inline constexpr int kNchwcMaxGroupSegments = 4;

/// Input columns one output row's taps span, padding included.
inline int64_t NchwcPaddedRowWidth(const NchwcConvArgs& a) {
  return (a.out_w - 1) * a.stride_w + (a.k_w - 1) * a.dil_w + 1;
}

/// Outputs [lo, hi) of one window axis whose taps all fall inside the input's `in` positions.
inline void NchwcInteriorRange(int64_t in, int64_t out, int64_t taps, int64_t stride,
                               int64_t dilation, int64_t pad_begin, int64_t& lo, int64_t& hi) {
  // Plain arithmetic, no standard-library templates: the kernels of every instruction set call it.
  const int64_t first = (pad_begin + stride - 1) / stride;
  lo = first < out ? first : out;
  const int64_t last = in - 1 + pad_begin - (taps - 1) * dilation;
  const int64_t end = last < 0 ? lo : last / stride + 1;
  hi = end < lo ? lo : end < out ? end : out;
}

/// Output columns [lo, hi) whose taps all fall inside the input row.
inline void NchwcInteriorColumns(const NchwcConvArgs& a, int64_t& lo, int64_t& hi) {
  NchwcInteriorRange(a.in_w, a.out_w, a.k_w, a.stride_w, a.dil_w, a.pad_left, lo, hi);
}

/// Output rows [lo, hi) whose taps all fall inside the input's rows.
inline void NchwcInteriorRows(const NchwcConvArgs& a, int64_t& lo, int64_t& hi) {
  NchwcInteriorRange(a.in_h, a.out_h, a.k_h, a.stride_h, a.dil_h, a.pad_top, lo, hi);
}

/// Floats of scratch a `conv_row` call needs: a padded copy of the rows it reads.
inline int64_t NchwcConvScratchFloats(const NchwcConvArgs& a) {
  return a.in_blocks * a.k_h * NchwcPaddedRowWidth(a) * a.in_block;
}

/// Floats of scratch a `depthwise_band` call of `rows` output rows needs: a zero-padded copy of
/// the input rows and columns their taps span in one block.
inline int64_t NchwcDepthwiseBandFloats(const NchwcConvArgs& a, int64_t rows) {
  const int64_t input_rows = (rows - 1) * a.stride_h + (a.k_h - 1) * a.dil_h + 1;
  return input_rows * NchwcPaddedRowWidth(a) * a.in_block;
}

/// One instruction set's kernels; `block` is its vector width in floats.
struct NchwcConvKernels {
  int64_t block;
  /// The most output filter blocks one `conv_row` or `conv_pixels` call takes: 1x1 convolutions'
  /// calls take this many (NchwcFilterBlocksPerCall).
  int64_t max_filter_blocks;
  /// Filter blocks per call of a convolution of more than one tap: fewer than max_filter_blocks
  /// where a tile of more blocks would split the input channels into more parts to keep their
  /// filters in L1 (AVX2: Inception v3's 3x3s and 5x5s ran 10-28% slower in 4-block calls).
  int64_t window_filter_blocks;
  /// Whether the Conv kernel runs the rows whose taps read no padding through `conv_pixels`:
  /// measured faster with AVX2 on a Zen 3; AVX-512 keeps rows until measured.
  bool runs_across_rows;
  /// The fewest 4x4 output tiles (all images) at which a 3x3 convolution whose transform is not
  /// large runs as Winograd F(4x4, 3x3) instead of these direct kernels (WinogradPays).
  int64_t winograd_min_tiles;
  /// Writes columns [ow_begin, ow_end) of output row `oh` of filter blocks [ob, ob + count) of
  /// image `n` (bias and sum added); `scratch` holds NchwcConvScratchFloats(args) floats, and
  /// may be null when the convolution has no padding (nothing is copied then).
  void (*conv_row)(const NchwcConvArgs& args, int64_t n, int64_t ob, int64_t count, int64_t oh,
                   int64_t ow_begin, int64_t ow_end, float* scratch);
  /// Writes pixels [p_begin, p_end) of filter blocks [ob, ob + count) of image `n`, counted
  /// across rows (pixel p is column p % out_w of row p / out_w), as `conv_row` does; every tap of
  /// these pixels must read inside the input. Tiles then run across row ends: rows of 7 or 14
  /// columns otherwise end in tiles of 3 or 4 pixels, too few sums to keep the FMA units busy.
  void (*conv_pixels)(const NchwcConvArgs& args, int64_t n, int64_t ob, int64_t count,
                      int64_t p_begin, int64_t p_end);
  /// Writes output row `oh` of channel block `ob` of image `n` of a depthwise convolution.
  void (*depthwise_row)(const NchwcConvArgs& args, int64_t n, int64_t ob, int64_t oh);
  /// Writes output rows [oh_begin, oh_end) of channel block `ob` of image `n` of a depthwise
  /// convolution from a padded copy of the input rows they read in `scratch`
  /// (NchwcDepthwiseBandFloats(args, oh_end - oh_begin) floats).
  void (*depthwise_band)(const NchwcConvArgs& args, int64_t n, int64_t ob, int64_t oh_begin,
                         int64_t oh_end, float* scratch);
  /// Writes output row `oh` of channel block `ob` of image `n` of a convolution of narrow groups
  /// (`group_channels` > 0) with filters [M / B, group_channels, KH, KW, B]; false (nothing
  /// written) when the block's lanes span more than kNchwcMaxGroupSegments groups and its groups
  /// (of 2, 4 or 8 channels) do not read only their own block. `scratch`
  /// holds NchwcConvScratchFloats(args) floats.
  bool (*narrow_group_row)(const NchwcConvArgs& args, int64_t n, int64_t ob, int64_t oh,
                           float* scratch);
  /// Winograd F(4x4, 3x3) input transform of tiles [tx_begin, tx_end) of tile row `ty` of
  /// channel block `ib` of image `n` (nchwc_winograd.h): tile tx_begin goes to tile `first` of
  /// `v`, laid out [36][in_blocks][tiles][block], and the next ones after it.
  void (*winograd_input_row)(const NchwcConvArgs& args, int64_t n, int64_t ib, int64_t ty,
                             int64_t tx_begin, int64_t tx_end, float* v, int64_t first,
                             int64_t tiles);
  /// Winograd output transform of the same tiles of filter block `ob` from the products `m`
  /// ([36][out_blocks][tiles][block]) into y, with bias, sum and clamp.
  void (*winograd_output_row)(const NchwcConvArgs& args, int64_t n, int64_t ob, int64_t ty,
                              int64_t tx_begin, int64_t tx_end, const float* m, int64_t first,
                              int64_t tiles);
};

/// Filter blocks per `conv_row` call of convolution `a` (1x1 or wider window).
inline int64_t NchwcFilterBlocksPerCall(const NchwcConvKernels& kernels, const NchwcConvArgs& a) {
  return a.k_h * a.k_w == 1 ? kernels.max_filter_blocks : kernels.window_filter_blocks;
}

/// How calls of `per_call` filter blocks share `out_blocks`: groups of per_call, the last one
/// taking a single block left over when max_filter_blocks allows (AVX2's 3 blocks of a 3x3 as
/// one tile of 3 x 4 pixels instead of tiles of 2 x 6 and 1 x 6, whose single filter vector
/// served six broadcasts).
inline int64_t NchwcFilterBlockGroups(const NchwcConvKernels& kernels, int64_t out_blocks,
                                      int64_t per_call) {
  const int64_t groups = (out_blocks + per_call - 1) / per_call;
  const bool absorb =
      groups > 1 && out_blocks % per_call == 1 && kernels.max_filter_blocks > per_call;
  return absorb ? groups - 1 : groups;
}

/// The filter blocks of group `index` of NchwcFilterBlockGroups, which starts at block
/// index * per_call.
inline int64_t NchwcFilterBlocksOfGroup(const NchwcConvKernels& kernels, int64_t out_blocks,
                                        int64_t per_call, int64_t index) {
  const int64_t rest = out_blocks - index * per_call;
  const bool last = index + 1 == NchwcFilterBlockGroups(kernels, out_blocks, per_call);
  return last || rest < per_call ? rest : per_call;
}

#define ORT_NCHWC_CONV_KERNELS(name, isa) extern const NchwcConvKernels name;
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernels.inc"
#undef ORT_NCHWC_CONV_KERNELS

/// Every set of NCHWc convolution kernels, in the order of nchwc_conv_kernels.inc.
inline constexpr IsaKernel<NchwcConvKernels> kNchwcConvKernels[] = {
#define ORT_NCHWC_CONV_KERNELS(name, isa) {#name, CpuIsa::isa, &name},
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernels.inc"
#undef ORT_NCHWC_CONV_KERNELS
};

/// The kernels of the best instruction set MaxCpuIsa() allows; their block is NchwcBlockSize().
inline const NchwcConvKernels& BestNchwcConvKernels() {
  // Chosen once: every node runs on the same set, and MaxCpuIsa() never changes.
  static const NchwcConvKernels& best = *BestIsaEntry(kNchwcConvKernels).kernel;
  return best;
}

}  // namespace ort
