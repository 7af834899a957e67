// com.microsoft.nchwc Conv: a 2-D convolution of blocked tensors with optional bias, Sum (added
// before the activation) and FusedConv's activation. Four forms, told apart by the shapes: as in
// ONNX Runtime, NCHWc input with OIHWBiBo filters (in groups whose channels fill whole blocks),
// plain NCHW input of fewer than B channels with OIHWBo filters, and depthwise (group ==
// channels) with OIHWBo filters [M, 1, KH, KW]; this engine's own, groups of as many filters as
// channels that do not fill whole blocks, with OIHWBo filters [M, channels per group, KH, KW]
// (sessions only: rule nchwc_narrow_groups). Also this engine's own, X of clips of frames
// [N, T, C, H, W] blocked (ReorderInput of a 5-D tensor): each frame an image, Y [N, T, M, H, W]
// (sessions only: rule nchwc_framed_conv).
#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/common/nn/window_attributes.h"
#include "providers/cpu/kernels/common/fused_activation.h"
#include "providers/cpu/kernels/common/thread_scratch.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_kernels.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd.h"

namespace ort {
namespace {

// Enough pixels per 1x1 task to amortize reloading its filters, few enough that small images
// still split across threads. One thread takes whole images, as MLAS does: each filter part then
// stays in L1 over the whole image instead of being reloaded every 96 pixels (resnet's 256 -> 128
// 1x1 over 56x56 at batch 2: 3.95 -> 3.79 ms).
constexpr int64_t kPointwisePixelsPerTask = 96;
// Below this many tasks per thread as whole images, a 1x1 convolution's images are cut into
// column ranges (lengths a multiple of kRangeMultiple, whole tiles of every instruction set).
constexpr int64_t kPointwiseMinTasksPerThread = 8;
constexpr int64_t kRangeMultiple = 12;
// The fewest pixels of such a range: four 6-pixel tiles per load of a filter part.
constexpr int64_t kPointwiseMinPixels = 24;

// How the output rows of one image and filter-block group split into tasks: rows [0, lo) and
// [hi, out_h) one per task, the pixels of rows [lo, hi) in `runs` runs of `run_pixels`.
struct RowTasks {
  int64_t lo = 0, hi = 0, runs = 0, run_pixels = 0;

  int64_t Count(int64_t out_h) const { return lo + runs + out_h - hi; }
  bool IsRun(int64_t r) const { return r >= lo && r < lo + runs; }
  int64_t RowOf(int64_t r) const { return r < lo ? r : r - lo - runs + hi; }
  // Pixels [begin, end) of run task r, counted across rows of `width`.
  void Pixels(int64_t r, int64_t width, int64_t& begin, int64_t& end) const {
    begin = lo * width + (r - lo) * run_pixels;
    end = std::min(hi * width, begin + run_pixels);
  }
};

// Runs for the rows of `a` whose taps all read inside the input (kNchwcRunPixels), long enough to
// reuse each part of the filters over many tiles, short enough that `tasks_per_run` x runs gives
// every thread kPointwiseMinTasksPerThread; none when a row's edge columns read padding.
RowTasks PixelRuns(const NchwcConvArgs& a, int64_t tasks_per_run, int64_t threads) {
  RowTasks t;
  int64_t col_lo = 0, col_hi = 0;
  NchwcInteriorColumns(a, col_lo, col_hi);
  NchwcInteriorRows(a, t.lo, t.hi);
  if (col_lo != 0 || col_hi != a.out_w || t.hi <= t.lo) return RowTasks{};
  const auto round_up = [](int64_t v) {
    return (v + kRangeMultiple - 1) / kRangeMultiple * kRangeMultiple;
  };
  const int64_t pixels = (t.hi - t.lo) * a.out_w;
  int64_t run = round_up(std::max(kNchwcRunPixels, a.out_w));
  const int64_t wanted = kPointwiseMinTasksPerThread * threads;
  if (threads > 1 && tasks_per_run * (pixels / run) < wanted) {
    run = round_up(std::max<int64_t>(1, tasks_per_run * pixels / wanted));
  }
  const int64_t runs = std::max<int64_t>(1, pixels / run);
  t.run_pixels = round_up((pixels + runs - 1) / runs);
  t.runs = (pixels + t.run_pixels - 1) / t.run_pixels;
  return t;
}

// A padded depthwise plane up to this size (a 28x28 3x3's, a 14x14 5x5's) is copied once and
// run as one task, when there are enough planes to share among threads. Wider taps (5x5, 7x7)
// leave more edge columns to the checked path than a copy costs: larger planes run in bands of
// rows whose padded input fits this size, enough bands for the threads to share.
constexpr int64_t kDepthwisePlaneMaxBytes = 64 << 10;
constexpr int64_t kDepthwisePlaneMinTasks = 16;
constexpr int64_t kDepthwiseBandMinTapWidth = 5;

// A strided depthwise convolution copies a band of s times more input rows and columns than it
// has outputs; it pays only when the checked edge columns are many (a 14x14 5x5 at stride 2,
// 2 of 7). Below a quarter, rows ran faster: 56x56 5x5 at stride 2 0.073 -> 0.050 ms, 28x28 3x3
// 0.029 -> 0.018 (80 and 240 channels).
bool StridedRowsPay(const NchwcConvArgs& a) {
  if (a.stride_w == 1) return false;
  int64_t lo = 0, hi = 0;
  NchwcInteriorColumns(a, lo, hi);
  return (lo + a.out_w - hi) * 4 <= a.out_w;
}

// Output rows per depthwise band task; 0 runs the convolution row by row, checking the edge
// columns' taps in place.
int64_t DepthwiseBandRows(const NchwcConvArgs& a, int64_t planes) {
  if (StridedRowsPay(a)) return 0;
  const auto fits = [&](int64_t rows) {
    return NchwcDepthwiseBandFloats(a, rows) * int64_t{sizeof(float)} <= kDepthwisePlaneMaxBytes;
  };
  if (fits(a.out_h) && planes >= kDepthwisePlaneMinTasks) return a.out_h;
  if (a.k_w < kDepthwiseBandMinTapWidth) return 0;
  const int64_t bands_for_threads = (kDepthwisePlaneMinTasks + planes - 1) / planes;
  int64_t rows = (a.out_h + bands_for_threads - 1) / bands_for_threads;
  while (rows > 1 && !fits(rows)) rows = (rows + 1) / 2;
  return fits(rows) ? rows : 0;
}

// Without a static spatial size the filters stay for calls where Winograd does not pay, and
// their transform (four times their size) is made at the first call whose image has at least
// this many tiles: the time Winograd saves per byte of transform grows with the image. A
// diffusion UNet with symbolic height and width held 150 MB of transforms, more than ORT's whole
// session, most of it for the 256-channel banks of its 12x12 layers (9 tiles), where Winograd
// gains least; its 24x24 layers (36 tiles) ran 2.2-3x faster with 31 MB of transforms (the
// zoo's UNet at batch 2 on a Zen 3, AVX2); FCN's 2048-channel head over 65x65 gains 2.3x.
constexpr int64_t kDynamicWinogradMinTiles = 36;

// Filters up to this size stay in L2 while a row's blocks take turns (half of a 2 MB L2).
constexpr int64_t kFiltersInnerMaxBytes = 1 << 20;

// While a row's blocks take turns, the input one output row reads (every channel of its tap
// rows) is cut into column ranges of at most this size, half of the smallest L2 (a Zen 3's
// 512 KB), so that the turns after the first find it there. R(2+1)D's temporal 3x1
// convolutions over 8 x 3136-pixel frames read 5.4 MB per output row, from memory once per
// pair of filter blocks on AVX2.
constexpr int64_t kRowInputMaxBytes = 256 << 10;
// Column ranges are whole multiples of every instruction set's tile width (4 and 6 pixels).
constexpr int64_t kRowColumnsMultiple = 24;
constexpr int64_t kPrefetchTilesAhead = 2;
// Input streams (channel blocks x tap rows) below this many, the hardware prefetchers follow.
constexpr int64_t kPrefetchMinStreams = 16;
// A call's input with its column padding copied in is at most this large (a temporary).
constexpr int64_t kPaddedColumnsMaxBytes = 4 << 20;

// Pixels (oh * stride_h, ow * stride_w) of `planes` blocked planes of a.x into `to`, a plane of
// out_h x out_w pixels each.
void GatherStridedPixels(const NchwcConvArgs& a, int64_t planes, int64_t block, float* to,
                         ThreadPool* pool) {
  const int64_t in_plane = a.in_h * a.in_w * block;
  const int64_t out_row = a.out_w * block;
  ThreadPool::TryParallelFor(
      pool, planes * a.out_h, static_cast<double>(out_row), [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const float* from =
              a.x + r / a.out_h * in_plane + r % a.out_h * a.stride_h * a.in_w * block;
          float* row = to + r * out_row;
          for (int64_t ow = 0; ow < a.out_w; ++ow) {
            std::copy_n(from + ow * a.stride_w * block, block, row + ow * block);
          }
        }
      });
}

// Rows of `planes` planes of a.x with a.pad_left and a.pad_right zero columns on either side, into
// `to` (planes x in_h rows of in_w + pad_left + pad_right pixels).
void PadColumns(const NchwcConvArgs& a, int64_t planes, float* to, ThreadPool* pool) {
  const int64_t in_row = a.in_w * a.in_block;
  const int64_t left = a.pad_left * a.in_block;
  const int64_t right = a.pad_right * a.in_block;
  const int64_t out_row = left + in_row + right;
  ThreadPool::TryParallelFor(pool, planes * a.in_h, static_cast<double>(out_row),
                             [&](int64_t begin, int64_t end) {
                               for (int64_t r = begin; r < end; ++r) {
                                 float* row = to + r * out_row;
                                 std::fill_n(row, left, 0.0f);
                                 std::copy_n(a.x + r * in_row, in_row, row + left);
                                 std::fill_n(row + left + in_row, right, 0.0f);
                               }
                             });
}

// The one tap of a window axis that reads the image for some output, reading input o * stride for
// every output o, when every other tap reads only padding; -1 otherwise.
int64_t SoleAlignedTap(int64_t in, int64_t out, int64_t taps, int64_t stride, int64_t dilation,
                       int64_t pad_begin) {
  int64_t live = -1;
  for (int64_t t = 0; t < taps; ++t) {
    const int64_t offset = t * dilation - pad_begin;
    const int64_t first_output = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
    if (first_output >= out || first_output * stride + offset >= in) continue;
    if (live >= 0) return -1;
    live = t;
  }
  return live >= 0 && live * dilation == pad_begin && (out - 1) * stride < in ? live : -1;
}

// Filter blocks [M / B, in_blocks, KH, KW, in_block, B] reduced to their tap (th, tw), as 1x1
// filters [M / B, in_blocks, 1, 1, in_block, B].
void CopyFilterTap(const NchwcConvArgs& a, int64_t filter_blocks, int64_t block, int64_t th,
                   int64_t tw, float* to) {
  const int64_t tap_floats = a.in_block * block;
  for (int64_t f = 0; f < filter_blocks * a.in_blocks; ++f) {
    const float* from = a.w + ((f * a.k_h + th) * a.k_w + tw) * tap_floats;
    std::copy_n(from, tap_floats, to + f * tap_floats);
  }
}

class NchwcConv final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info, false));
    ORT_ASSIGN_OR_RETURN(activation_, ParseConvActivation(info));
    PrepareWinograd(info);
    return Status::OK();
  }

  bool PrePackedInput(size_t index) const override { return index == 1 && winograd_only_; }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    // Filters that only Winograd reads were freed after their transform.
    const Tensor* w = nullptr;
    if (!winograd_only_) {
      ORT_ASSIGN_OR_RETURN(w, context.RequiredInput(1));
    }
    const Tensor* bias = context.Input(2);
    const Tensor* sum = context.Input(3);
    const NchwcConvKernels& kernels = BestNchwcConvKernels();
    const int64_t block = kernels.block;
    const TensorShape& x_shape = x->shape();
    const bool framed = x_shape.rank() == 5;
    const TensorShape xs =
        framed ? TensorShape({x_shape[0] * x_shape[1], x_shape[2], x_shape[3], x_shape[4]})
               : x_shape;
    const TensorShape ws = w != nullptr
                               ? w->shape()
                               : TensorShape({winograd_->filters(), winograd_->channels(), 3, 3});
    if (xs.rank() != 4 || ws.rank() != 4) {
      return context.Error("X {} and W {} must be 4-D", xs.ToString(), ws.ToString());
    }
    const int64_t filters = ws[0];
    const int64_t group = attributes_.group;
    const bool depthwise = group > 1 && ws[1] == 1;
    const bool nchw_input = group == 1 && xs[1] < block;
    // Groups of as many filters as channels that do not fill whole blocks: W is
    // [M rounded up to B, channels per group, KH, KW] and the last block's extra filters are zero.
    const bool narrow = group > 1 && ws[1] > 1 && ws[1] % block != 0;
    // Other groups must fill whole blocks on both sides: each is then a convolution of its own
    // input and output blocks.
    const int64_t groups = depthwise || narrow ? 1 : group;
    const int64_t padded_channels = (group * ws[1] + block - 1) / block * block;
    const bool shapes_ok =
        filters % block == 0 &&
        (depthwise ? group == filters && xs[1] == filters
         : narrow  ? xs[1] == padded_channels && filters == padded_channels
                   : group >= 1 && ws[1] * group == xs[1] && filters % group == 0 &&
                        (nchw_input || (ws[1] % block == 0 && filters / group % block == 0)));
    if (!shapes_ok) {
      return context.Error("X {}, W {} and group {} do not form an NCHWc convolution of block {}",
                           xs.ToString(), ws.ToString(), group, block);
    }
    auto geometry =
        ResolveWindow(attributes_, {xs.dims().data() + 2, 2}, {ws.dims().data() + 2, 2}, false);
    if (!geometry.ok()) return context.Error("{}", geometry.status().message());
    const WindowGeometry& g = *geometry;
    const TensorShape y_shape =
        framed ? TensorShape({x_shape[0], x_shape[1], filters, g.output[0], g.output[1]})
               : TensorShape({xs[0], filters, g.output[0], g.output[1]});
    if (bias != nullptr && (bias->shape().rank() != 1 || bias->shape()[0] != filters)) {
      return context.Error("B {} must be [{}]", bias->shape().ToString(), filters);
    }
    if (sum != nullptr && sum->shape() != y_shape) {
      return context.Error("Sum {} must have the output's shape {}", sum->shape().ToString(),
                           y_shape.ToString());
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, y_shape));
    if (y->NumElements() == 0) return Status::OK();
    NchwcConvArgs args;
    args.x = x->Data<float>();
    args.w = w != nullptr ? w->Data<float>() : nullptr;
    args.bias = bias != nullptr ? bias->Data<float>() : nullptr;
    args.sum = sum != nullptr ? sum->Data<float>() : nullptr;
    args.y = y->MutableData<float>();
    args.in_block = nchw_input ? 1 : block;
    args.in_blocks = nchw_input ? xs[1] : narrow ? xs[1] / block : ws[1] / block;
    if (narrow) {
      args.group_channels = ws[1];
      args.groups = group;
    }
    args.out_blocks = filters / groups / block;
    SetNchwcWindow(g, args);
    // Relu and Clip become the kernels' output clamp; other activations run over each row after.
    const bool clamps =
        activation_.kind == ActivationKind::kRelu || activation_.kind == ActivationKind::kClip;
    if (activation_.kind == ActivationKind::kRelu) args.out_min = 0.0f;
    if (activation_.kind == ActivationKind::kClip) {
      args.out_min = activation_.alpha;
      args.out_max = activation_.beta;
    }
    if (args.k_h > kNchwcMaxKernelRows) {
      return context.Error("kernel height {} exceeds the {} rows NCHWc kernels handle", args.k_h,
                           kNchwcMaxKernelRows);
    }
    // A window whose taps but one read only padding for every output is a 1x1 convolution with
    // that tap's filters: DeepLab's ASPP dilates 3x3 kernels by 24 and 36 over 14x14, where
    // only the centre tap reads the image (960 -> 256 channels at batch 2: 6.9 -> 2.7 ms on a
    // Zen 3), as is a padded 3x3 over a 1x1 image.
    Tensor tap_filters;
    const int64_t sole_h =
        SoleAlignedTap(args.in_h, args.out_h, args.k_h, args.stride_h, args.dil_h, args.pad_top);
    const int64_t sole_w =
        SoleAlignedTap(args.in_w, args.out_w, args.k_w, args.stride_w, args.dil_w, args.pad_left);
    if (!depthwise && !narrow && !nchw_input && w != nullptr && args.k_h * args.k_w > 1 &&
        sole_h >= 0 && sole_w >= 0) {
      ORT_ASSIGN_OR_RETURN(
          tap_filters, context.AllocateTemp(DataType::kFloat, TensorShape({filters, ws[1], 1, 1})));
      CopyFilterTap(args, filters / block, block, sole_h, sole_w, tap_filters.MutableData<float>());
      args.w = tap_filters.Data<float>();
      args.k_h = args.k_w = 1;
      args.dil_h = args.dil_w = 1;
      args.pad_top = args.pad_left = args.pad_bottom = args.pad_right = 0;
    }
    const NchwcWinogradFilters* winograd = winograd_ != nullptr ? winograd_.get()
                                           : w != nullptr       ? LazyWinograd(args, *w)
                                                                : nullptr;
    if (winograd != nullptr && args.k_h == 3 && args.k_w == 3 && args.stride_h == 1 &&
        args.stride_w == 1 && args.dil_h == 1 && args.dil_w == 1 && !nchw_input &&
        (winograd_only_ || WinogradPays(kernels, args, xs[0]))) {
      RunNchwcWinograd(kernels, args, xs[0], *winograd,
                       activation_.enabled() && !clamps ? &activation_ : nullptr,
                       context.thread_pool());
      return Status::OK();
    }
    // A strided 1x1 convolution without padding reads every s-th pixel of every s-th row: those
    // pixels, gathered into an image of their own, run as a convolution without stride, whose
    // image is one long row of whole tiles instead of rows of 7 or 14 pixels that reload the
    // filters every few pixels. The gather copies a 1/M share of what the convolution reads.
    // Resnet50's downsampling 1x1s at batch 2 on a Zen 3 (AVX2): 512 -> 1024 over 28x28 8.8 ->
    // 5.8 ms, 1024 -> 2048 over 14x14 8.0 -> 6.9 ms.
    Tensor gathered;
    if (!depthwise && !narrow && !nchw_input && args.k_h == 1 && args.k_w == 1 &&
        (args.stride_h > 1 || args.stride_w > 1) && args.pad_top == 0 && args.pad_left == 0 &&
        args.pad_bottom == 0 && args.pad_right == 0) {
      ORT_ASSIGN_OR_RETURN(
          gathered, context.AllocateTemp(DataType::kFloat,
                                         TensorShape({xs[0], xs[1], args.out_h, args.out_w})));
      GatherStridedPixels(args, xs[0] * xs[1] / block, block, gathered.MutableData<float>(),
                          context.thread_pool());
      args.x = gathered.Data<float>();
      args.in_h = args.out_h;
      args.in_w = args.out_w;
      args.stride_h = args.stride_w = 1;
    }
    // Left and right padding copied with the image once per call: otherwise the tasks of every
    // group of filter blocks copied the padded columns of their rows again (sixteen times for a
    // 256-channel layer on AVX2), and rows were cut into parts at the padding, leaving short
    // tiles (14 columns ran as 6 + 6 + 2). Padding that only a dilated window or one wider than
    // the kernel reaches keeps the row copies, which skip the taps that read only padding. So does
    // an NCHW input (a network's stem, 3 channels): its rows are cheap to copy, and copying the
    // whole image cost more than it saved: without it, at batch 2, EfficientNet-B0's 3x3
    // stride-2 stem 0.77 -> 0.62 ms on AVX-512 and 1.08 -> 0.91 on AVX2; ResNet-50's and
    // GoogLeNet's 7x7 ones 0.95-0.97x the time on AVX-512, ResNet-50's 1.02x on AVX2.
    Tensor column_padded;
    const int64_t planes = xs[0] * xs[1] / args.in_block;
    const int64_t padded_bytes = planes * args.in_h * (args.in_w + args.pad_left + args.pad_right) *
                                 args.in_block * int64_t{sizeof(float)};
    if (!depthwise && !narrow && !nchw_input && args.dil_w == 1 &&
        args.pad_left + args.pad_right > 0 && args.pad_left < args.k_w &&
        args.pad_right < args.k_w && padded_bytes <= kPaddedColumnsMaxBytes) {
      ORT_ASSIGN_OR_RETURN(
          column_padded,
          context.AllocateTemp(DataType::kFloat,
                               TensorShape({padded_bytes / int64_t{sizeof(float)}})));
      PadColumns(args, planes, column_padded.MutableData<float>(), context.thread_pool());
      args.x = column_padded.Data<float>();
      args.in_w += args.pad_left + args.pad_right;
      args.pad_left = args.pad_right = 0;
    }
    const bool one_thread =
        context.thread_pool() == nullptr || context.thread_pool()->DegreeOfParallelism() == 1;
    const int64_t threads = one_thread ? 1 : context.thread_pool()->DegreeOfParallelism();
    // A 1x1 convolution without stride or padding reads pixels in output order: its image is one
    // long row, cut into column ranges so that threads share it. So does a depthwise 1x1 (a
    // BatchNorm's per-channel affine) with planes enough for the threads: each plane is one task
    // of whole tiles instead of a task per row of 7 to 56 pixels (DenseNet-121's 62 of them took
    // 9.3 ms per run at batch 2 against ORT's 8.2).
    const bool one_by_one = args.k_h == 1 && args.k_w == 1 && args.stride_h == 1 &&
                            args.stride_w == 1 && args.pad_top == 0 && args.pad_left == 0 &&
                            args.out_h == args.in_h && args.out_w == args.in_w;
    const bool pointwise = !depthwise && !narrow && one_by_one;
    const bool planes_as_rows =
        depthwise && one_by_one &&
        (threads == 1 || xs[0] * args.out_blocks >= kPointwiseMinTasksPerThread * threads);
    if (pointwise || planes_as_rows) {
      args.in_w = args.out_w = args.in_h * args.in_w;
      args.in_h = args.out_h = 1;
    }
    // A task is a column range of one output row of up to NchwcFilterBlocksPerCall filter blocks of
    // one image. Whichever of a group's filters and an image's input is the larger is read from
    // memory once: rows of the same blocks are adjacent, then images (a deep layer's filters, 9 MB
    // in resnet50's last 3x3s, then come once per run, not once per image); unless the filters
    // fit in L2 with room to spare and the image is larger, when the blocks of one row are
    // adjacent instead (DenseNet's 1x1s over 2.8 MB of 56x56 input read it once, not per block).
    const bool row_per_block = depthwise || narrow;
    const int64_t per_task = row_per_block ? 1 : NchwcFilterBlocksPerCall(kernels, args);
    const int64_t block_groups = row_per_block
                                     ? args.out_blocks
                                     : NchwcFilterBlockGroups(kernels, args.out_blocks, per_task);
    // Padding that makes edge columns take the checked path is copied away with the plane.
    const bool padded = args.pad_top + args.pad_left + args.pad_bottom + args.pad_right > 0;
    const int64_t band_rows =
        depthwise && padded ? DepthwiseBandRows(args, xs[0] * args.out_blocks) : 0;
    const int64_t filter_bytes = args.out_blocks * block * args.in_blocks * args.in_block *
                                 args.k_h * args.k_w * int64_t{sizeof(float)};
    const int64_t image_bytes =
        args.in_blocks * args.in_block * args.in_h * args.in_w * int64_t{sizeof(float)};
    const bool blocks_inner = !row_per_block && filter_bytes <= kFiltersInnerMaxBytes &&
                              image_bytes > filter_bytes && block_groups > 1;
    int64_t columns_per_task = args.out_w;
    int64_t column_tasks = 1;
    const int64_t whole_row_tasks = xs[0] * groups * block_groups * args.out_h;
    if (pointwise && threads > 1 && whole_row_tasks < kPointwiseMinTasksPerThread * threads) {
      // Even ranges: 196 pixels as 96 + 96 + 4 left a task that reloaded every filter for 4
      // pixels. With tasks enough already, whole images: a 408 -> 408 1x1 over 14x14 (RegNet,
      // 52 tasks at batch 2) took 1.26 ms on 2 threads in ranges, 1.59 on one. Small images are
      // cut into as many ranges as give every thread its tasks, down to kPointwiseMinPixels:
      // MnasNet's 1152 -> 192 over 7x7 at batch 1 ran its 3 whole-image tasks 2 + 1 on 2
      // threads (0.106 ms against 0.124 on one; ORT 0.077).
      const int64_t wanted =
          (kPointwiseMinTasksPerThread * threads + whole_row_tasks - 1) / whole_row_tasks;
      const int64_t ranges = std::min(
          std::max((args.out_w + kPointwisePixelsPerTask - 1) / kPointwisePixelsPerTask, wanted),
          std::max<int64_t>(1, args.out_w / kPointwiseMinPixels));
      column_tasks = ranges;
    }
    const int64_t column_bytes =
        args.in_blocks * args.in_block * args.k_h * args.stride_w * int64_t{sizeof(float)};
    if (!row_per_block && column_bytes * args.out_w > kRowInputMaxBytes &&
        args.in_blocks * args.k_h >= kPrefetchMinStreams) {
      // R(2+1)D's temporal convolutions (144 -> 64 channels over 2 x 8 x 3136) 245 -> 69 ms on
      // a Zen 3 (AVX2; ORT 43-54) with ranges of 144 columns; FCN's dilated 1x1s over 28x28
      // (1024 -> 2048 channels, whose filters are too large for ranges) 833 -> 92 ms.
      args.prefetch_tiles = kPrefetchTilesAhead;
      if (blocks_inner) {
        const int64_t fitting = kRowInputMaxBytes / column_bytes / kRowColumnsMultiple;
        const int64_t width = std::max<int64_t>(1, fitting) * kRowColumnsMultiple;
        if (width * column_tasks < args.out_w) {
          columns_per_task = width;
          column_tasks = (args.out_w + width - 1) / width;
        }
      }
    }
    // Column range i of a row starts at column_begin(i): columns_per_task wide, or (when that is
    // the whole row) ranges of equal length with bounds rounded to whole tiles of every
    // instruction set, the last one ending the row.
    const bool even_ranges = columns_per_task == args.out_w;
    const auto column_begin = [&](int64_t i) {
      if (i >= column_tasks) return args.out_w;
      if (!even_ranges) return i * columns_per_task;
      const int64_t even = i * args.out_w / column_tasks;
      return (even + kRangeMultiple / 2) / kRangeMultiple * kRangeMultiple;
    };
    if (even_ranges) columns_per_task = (args.out_w + column_tasks - 1) / column_tasks;
    const RowTasks row_tasks =
        kernels.runs_across_rows && !row_per_block && !pointwise && args.prefetch_tiles == 0
            ? PixelRuns(args, xs[0] * groups * block_groups, threads)
            : RowTasks{};
    const bool runs = row_tasks.runs > 0;
    const int64_t rows = band_rows > 0 ? (args.out_h + band_rows - 1) / band_rows
                         : runs        ? row_tasks.Count(args.out_h)
                                       : args.out_h * column_tasks;
    // Group g of image n is image n * groups + g of a convolution of one group's blocks; only
    // its filters and bias depend on g.
    std::vector<NchwcConvArgs> group_args(static_cast<size_t>(groups), args);
    for (int64_t g = 1; g < groups; ++g) {
      NchwcConvArgs& at = group_args[static_cast<size_t>(g)];
      at.w += g * args.out_blocks * args.in_blocks * args.k_h * args.k_w * block * block;
      if (at.bias != nullptr) at.bias += g * args.out_blocks * block;
    }
    const int64_t tasks = xs[0] * groups * block_groups * rows;
    // When the images divide evenly among the threads and the filters fit in L2, each thread
    // takes whole images: the next convolution's thread then reads the activations it wrote
    // itself from its own cache, instead of the half the other core wrote (a share of filter
    // blocks reads every image). At 2 threads, batch 2: MnasNet and MobileNet v2 0.93x the time,
    // EfficientNet-B0 0.95x, DenseNet-121 0.97x; a 1152 -> 192 1x1 over 7x7 0.88x.
    const bool images_outer = threads > 1 && xs[0] % threads == 0 && filter_bytes <= args.l2_bytes;
    const int64_t depth = depthwise ? 1 : narrow ? ws[1] : args.in_blocks * args.in_block;
    const int64_t pixels_per_task = runs ? args.out_h * args.out_w / rows : columns_per_task;
    const double cost =
        2.0 * static_cast<double>(per_task * block * pixels_per_task * depth * args.k_h * args.k_w *
                                  std::max<int64_t>(band_rows, 1));
    const int64_t row = args.out_w * block;
    const size_t scratch_floats =
        static_cast<size_t>(band_rows > 0 ? NchwcDepthwiseBandFloats(args, band_rows)
                            : depthwise   ? 0
                                          : NchwcConvScratchFloats(args));
    std::atomic<bool> too_many_segments{false};
    ThreadPool::TryParallelFor(context.thread_pool(), tasks, cost, [&](int64_t begin, int64_t end) {
      thread_local AlignedScratch<float> scratch_buffer;
      float* scratch = scratch_buffer.Get(scratch_floats);
      for (int64_t task = begin; task < end; ++task) {
        int64_t n = 0, ob = 0, r = 0;
        if (blocks_inner) {
          ob = task % block_groups * per_task;
          r = task / block_groups % rows;
          const int64_t image_group = task / block_groups / rows;
          n = images_outer ? image_group : image_group % xs[0] * groups + image_group / xs[0];
        } else if (images_outer) {
          r = task % rows;
          const int64_t block_group = task / rows % (groups * block_groups);
          n = task / rows / (groups * block_groups) * groups + block_group / block_groups;
          ob = block_group % block_groups * per_task;
        } else {
          r = task % rows;
          const int64_t image = task / rows % xs[0];
          const int64_t block_group = task / rows / xs[0];
          n = image * groups + block_group / block_groups;
          ob = block_group % block_groups * per_task;
        }
        const bool run = runs && row_tasks.IsRun(r);
        const int64_t oh = run ? 0 : runs ? row_tasks.RowOf(r) : r / column_tasks;
        const int64_t ow_begin = runs ? 0 : column_begin(r % column_tasks);
        const int64_t ow_end = runs ? args.out_w : column_begin(r % column_tasks + 1);
        const int64_t count = row_per_block ? 1
                                            : NchwcFilterBlocksOfGroup(kernels, args.out_blocks,
                                                                       per_task, ob / per_task);
        // Pixels [p_begin, p_end) of the image, counted across rows.
        int64_t p_begin = oh * args.out_w + ow_begin;
        int64_t p_end = oh * args.out_w + ow_end;
        if (run) row_tasks.Pixels(r, args.out_w, p_begin, p_end);
        if (band_rows > 0) {
          const int64_t band_begin = r * band_rows;
          const int64_t band_end = std::min(args.out_h, band_begin + band_rows);
          kernels.depthwise_band(args, n, ob, band_begin, band_end, scratch);
          if (activation_.enabled() && !clamps) {
            activation_.Apply(args.y + ((n * args.out_blocks + ob) * args.out_h + band_begin) * row,
                              (band_end - band_begin) * row);
          }
          continue;
        }
        if (run) {
          kernels.conv_pixels(group_args[static_cast<size_t>(n % groups)], n, ob, count, p_begin,
                              p_end);
        } else if (depthwise) {
          kernels.depthwise_row(args, n, ob, oh);
        } else if (narrow) {
          if (!kernels.narrow_group_row(args, n, ob, oh, scratch)) too_many_segments = true;
        } else {
          kernels.conv_row(group_args[static_cast<size_t>(n % groups)], n, ob, count, oh, ow_begin,
                           ow_end, scratch);
        }
        if (!activation_.enabled() || clamps) continue;
        for (int64_t j = 0; j < count; ++j) {
          activation_.Apply(
              args.y + ((n * args.out_blocks + ob + j) * args.out_h * args.out_w + p_begin) * block,
              (p_end - p_begin) * block);
        }
      }
    });
    if (too_many_segments) {
      return context.Error("groups of {} channels put more than {} groups in a block of {}", ws[1],
                           kNchwcMaxGroupSegments, block);
    }
    return Status::OK();
  }

 private:
  static bool AllOnes(const std::vector<int64_t>& values) {
    return std::all_of(values.begin(), values.end(), [](int64_t v) { return v == 1; });
  }

  // Transforms constant 3x3 filters of a stride-1, undilated, ungrouped NCHWc convolution for
  // Winograd, unless the input's static size says it would not pay (a symbolic batch counts as
  // one image). When it says Winograd pays, the direct kernels never run, so the original
  // filters may be freed; without a static size the transform waits for a call that pays
  // (LazyWinograd).
  void PrepareWinograd(const KernelInfo& info) {
    const Tensor* w = info.ConstantInput(1);
    const int64_t block = NchwcBlockSize();
    if (w == nullptr || w->dtype() != DataType::kFloat || w->shape().rank() != 4 ||
        attributes_.group != 1 || !AllOnes(attributes_.strides) ||
        !AllOnes(attributes_.dilations)) {
      return;
    }
    const TensorShape& ws = w->shape();
    if (ws[2] != 3 || ws[3] != 3 || ws[0] % block != 0 || ws[1] % block != 0) return;
    const ValueType* x_type = info.InputType(0);
    const size_t rank = x_type != nullptr && x_type->shape ? x_type->shape->size() : 0;
    if ((rank == 4 || rank == 5) && (*x_type->shape)[rank - 2].IsKnown() &&
        (*x_type->shape)[rank - 1].IsKnown()) {
      const SymbolicShape& xs = *x_type->shape;
      const int64_t spatial[2] = {xs[rank - 2].value, xs[rank - 1].value};
      auto geometry = ResolveWindow(attributes_, spatial, {ws.dims().data() + 2, 2}, false);
      if (!geometry.ok()) return;
      NchwcConvArgs args;
      SetNchwcWindow(*geometry, args);
      // Images: the batch (counted as one when symbolic) times the frames of a clip.
      int64_t images = xs[0].IsKnown() ? xs[0].value : 1;
      if (rank == 5) images *= xs[1].IsKnown() ? xs[1].value : 1;
      args.in_block = block;
      args.in_blocks = ws[1] / block;
      args.out_blocks = ws[0] / block;
      if (!WinogradPays(BestNchwcConvKernels(), args, images)) return;
      winograd_only_ = true;
      winograd_ = std::make_unique<NchwcWinogradFilters>(w->Data<float>(), ws[0], ws[1], block);
      return;
    }
    lazy_winograd_ = true;
  }

  // The transform of filters whose input has a symbolic spatial size, made at the first call
  // whose image is large enough (kDynamicWinogradMinTiles); null before, or when the image is
  // smaller. `w` holds the packed filters.
  const NchwcWinogradFilters* LazyWinograd(const NchwcConvArgs& args, const Tensor& w) const {
    if (!lazy_winograd_ || !WinogradPays(BestNchwcConvKernels(), args, 1) ||
        (args.out_h + 3) / 4 * ((args.out_w + 3) / 4) < kDynamicWinogradMinTiles) {
      return nullptr;
    }
    std::call_once(lazy_winograd_once_, [&] {
      const TensorShape& ws = w.shape();
      lazy_winograd_filters_ =
          std::make_unique<NchwcWinogradFilters>(w.Data<float>(), ws[0], ws[1], NchwcBlockSize());
    });
    return lazy_winograd_filters_.get();
  }

  WindowAttributes attributes_;
  FusedActivation activation_;
  std::unique_ptr<NchwcWinogradFilters> winograd_;
  bool winograd_only_ = false;
  bool lazy_winograd_ = false;
  mutable std::once_flag lazy_winograd_once_;
  mutable std::unique_ptr<NchwcWinogradFilters> lazy_winograd_filters_;
};

}  // namespace

void RegisterNchwcConvKernels(KernelRegistry& registry) {
  // The Sum may be y's own buffer: every form reads a sum element before writing that element.
  registry.Add<NchwcConv>(
      KernelDef("Conv", kNchwcDomain).Versions(1).Input(0, {DataType::kFloat}).MayInplace(3, 0));
}

}  // namespace ort
