// Every instruction set's NCHWc convolution microkernels this CPU can run (AVX-512, AVX2 and the
// portable set, whatever block each uses) against a direct loop over the same blocked tensors:
// the Conv kernel tests reach only the set matching NchwcBlockSize().
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_winograd.h"

namespace ort::test {
namespace {

std::vector<float> Random(size_t size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> values(-8, 8);
  std::vector<float> out(size);
  for (float& v : out) v = static_cast<float>(values(rng)) / 8.0f;
  return out;
}

enum class Form { kBlocked, kPlain, kDepthwise };

// Output element (n, filter m, oh, ow) computed tap by tap from the blocked layouts.
float Reference(const NchwcConvArgs& a, Form form, int64_t block, int64_t n, int64_t m, int64_t oh,
                int64_t ow) {
  const int64_t ob = m / block, bo = m % block;
  const int64_t channels = form == Form::kDepthwise ? 1 : a.in_blocks * a.in_block;
  float sum = a.bias != nullptr ? a.bias[m] : 0.0f;
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t kh = 0; kh < a.k_h; ++kh) {
      for (int64_t kw = 0; kw < a.k_w; ++kw) {
        const int64_t ih = oh * a.stride_h - a.pad_top + kh * a.dil_h;
        const int64_t iw = ow * a.stride_w - a.pad_left + kw * a.dil_w;
        if (ih < 0 || ih >= a.in_h || iw < 0 || iw >= a.in_w) continue;
        float x = 0.0f, w = 0.0f;
        if (form == Form::kDepthwise) {
          x = a.x[(((n * a.out_blocks + ob) * a.in_h + ih) * a.in_w + iw) * block + bo];
          w = a.w[((ob * a.k_h + kh) * a.k_w + kw) * block + bo];
        } else {
          const int64_t ib = c / a.in_block, bi = c % a.in_block;
          x = a.x[(((n * a.in_blocks + ib) * a.in_h + ih) * a.in_w + iw) * a.in_block + bi];
          w = a.w[((((ob * a.in_blocks + ib) * a.k_h + kh) * a.k_w + kw) * a.in_block + bi) *
                      block +
                  bo];
        }
        sum += x * w;
      }
    }
  }
  const int64_t y = (((n * a.out_blocks + ob) * a.out_h + oh) * a.out_w + ow) * block + bo;
  return std::clamp(sum + (a.sum != nullptr ? a.sum[y] : 0.0f), a.out_min, a.out_max);
}

// Random inputs for `a` (its shape already set) of `batch` images, wired into `a`; y starts at -1.
struct ConvBuffers {
  std::vector<float> x, w, bias, sum, y;

  ConvBuffers(NchwcConvArgs& a, int64_t batch, int64_t block, int64_t depth, bool with_sum,
              uint32_t seed)
      : x(Random(static_cast<size_t>(batch * a.in_blocks * a.in_block * a.in_h * a.in_w), seed)),
        w(Random(static_cast<size_t>(a.out_blocks * block * depth * a.k_h * a.k_w), seed + 1)),
        bias(Random(static_cast<size_t>(a.out_blocks * block), seed + 2)),
        sum(Random(static_cast<size_t>(batch * a.out_blocks * block * a.out_h * a.out_w),
                   seed + 3)),
        y(sum.size(), -1.0f) {
    a.x = x.data();
    a.w = w.data();
    a.bias = bias.data();
    a.sum = with_sum ? sum.data() : nullptr;
    a.y = y.data();
  }
};

// Every output element of `a`'s `batch` images against Reference within `epsilon` / `margin`.
void CheckOutput(const NchwcConvArgs& a, Form form, int64_t block, int64_t batch, double epsilon,
                 double margin) {
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t m = 0; m < a.out_blocks * block; ++m) {
      for (int64_t oh = 0; oh < a.out_h; ++oh) {
        for (int64_t ow = 0; ow < a.out_w; ++ow) {
          const int64_t index =
              (((n * a.out_blocks + m / block) * a.out_h + oh) * a.out_w + ow) * block + m % block;
          INFO("n " << n << " m " << m << " oh " << oh << " ow " << ow);
          REQUIRE(a.y[index] ==
                  Approx(Reference(a, form, block, n, m, oh, ow)).epsilon(epsilon).margin(margin));
        }
      }
    }
  }
}

// Filter blocks of the kernels' tests: calls of every count from 1 to 4 (ForEachFilterBlockCall).
constexpr int64_t kFilterBlocks = 10;

// Filter blocks [0, out_blocks) in calls of max_filter_blocks, then 1, 2, ... blocks in turn: a
// tile's pixels depend on its blocks (AVX2 takes 4 x 3, 3 x 4, 2 x 6 and 1 x 6).
template <typename Call>
void ForEachFilterBlockCall(const NchwcConvKernels& kernels, int64_t out_blocks, Call call) {
  int64_t count = kernels.max_filter_blocks;
  for (int64_t ob = 0; ob < out_blocks;) {
    const int64_t taken = std::min(count, out_blocks - ob);
    call(ob, taken);
    ob += taken;
    count = count % kernels.max_filter_blocks + 1;
  }
}

// `deep_blocks` (blocked form only) replaces the 2 input channel blocks, and a 1x1 kernel the 3x3
// when `pointwise`: deep layers sum their channels in parts (nchwc_conv_kernel.inc). A
// `dilation_w` above 1 dilates the columns, padded to keep their count (taps reading only
// padding). `sum_in_y`: the sum starts in y's own buffer (the Sum planned in place). `caches`
// replaces the host's cache sizes, which size the parts.
void CheckKernels(const NchwcConvKernels& kernels, Form form, bool with_sum, bool padded,
                  bool clamped, int64_t deep_blocks = 0, bool pointwise = false,
                  int64_t dilation_w = 1, bool sum_in_y = false,
                  const CpuCaches& caches = GetCpuCaches()) {
  const int64_t block = kernels.block;
  NchwcConvArgs a;
  a.l1_bytes = caches.l1_data_bytes;
  a.l2_bytes = caches.l2_bytes;
  const int64_t batch = 2;
  a.in_block = form == Form::kPlain ? 1 : block;
  a.in_blocks = form == Form::kPlain ? 3 : deep_blocks > 0 ? deep_blocks : 2;
  a.out_blocks = form == Form::kDepthwise ? a.in_blocks : kFilterBlocks;
  a.in_h = 7;
  a.in_w = 19;
  a.k_h = pointwise ? 1 : 3;
  a.k_w = pointwise ? 1 : form == Form::kPlain ? 5 : 3;
  a.stride_w = form == Form::kPlain ? 2 : 1;
  a.dil_h = form == Form::kDepthwise ? 2 : 1;
  a.pad_top = padded ? 1 : 0;
  a.pad_left = padded ? 2 : 0;
  if (dilation_w > 1) {
    a.dil_w = dilation_w;
    a.pad_left = dilation_w * (a.k_w - 1) / 2;
  }
  if (clamped) {
    a.out_min = -0.75f;
    a.out_max = 1.5f;
  }
  a.out_h = (a.in_h + 2 * a.pad_top - a.dil_h * (a.k_h - 1) - 1) / a.stride_h + 1;
  a.out_w = (a.in_w + 2 * a.pad_left - a.dil_w * (a.k_w - 1) - 1) / a.stride_w + 1;
  const int64_t depth = form == Form::kDepthwise ? 1 : a.in_blocks * a.in_block;
  ConvBuffers buffers(a, batch, block, depth, with_sum, 1);
  if (sum_in_y) {
    buffers.y = buffers.sum;
    a.sum = a.y = buffers.y.data();
  }
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t oh = 0; oh < a.out_h; ++oh) {
      if (form == Form::kDepthwise) {
        for (int64_t ob = 0; ob < a.out_blocks; ++ob) {
          kernels.depthwise_row(a, n, ob, oh);
        }
        continue;
      }
      // Each row in column ranges of every width from 1 to 8, to reach every tail tile and the
      // ranges that end in two tiles of half the rest (7 and 8 pixels on AVX-512 and AVX2, 5
      // portable).
      std::vector<float> scratch(static_cast<size_t>(NchwcConvScratchFloats(a)));
      ForEachFilterBlockCall(kernels, a.out_blocks, [&](int64_t ob, int64_t count) {
        const int64_t widths[] = {7, 5, 8, 1, 6, 2, 3, 4};
        for (int64_t begin = 0, i = 0; begin < a.out_w; ++i) {
          const int64_t end = std::min(a.out_w, begin + widths[(i + oh) % 8]);
          // Without padding nothing is copied: the kernels must not touch the scratch.
          kernels.conv_row(a, n, ob, count, oh, begin, end, padded ? scratch.data() : nullptr);
          begin = end;
        }
      });
    }
  }
  if (sum_in_y) a.sum = buffers.sum.data();
  // Catch's default relative tolerance.
  CheckOutput(a, form, block, batch, std::numeric_limits<float>::epsilon() * 100, 1e-4);
}

TEST_CASE("NCHWc conv microkernels of every usable instruction set match a direct loop",
          "[contrib][nchwc][Conv]") {
  CHECK(BestNchwcConvKernels().block == NchwcBlockSize());
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    const auto& [name, isa, kernels] = *entry;
    for (Form form : {Form::kBlocked, Form::kPlain, Form::kDepthwise}) {
      for (bool with_sum : {false, true}) {
        for (bool padded : {false, true}) {
          for (bool clamped : {false, true}) {
            INFO(name << " form " << static_cast<int>(form) << " sum " << with_sum << " padded "
                      << padded << " clamped " << clamped);
            CheckKernels(*kernels, form, with_sum, padded, clamped);
            // 1x1 kernels of blocked input have tiles of their own; padded, their top row reads
            // only padding and their left columns a zeroed copy.
            if (form == Form::kBlocked) {
              CheckKernels(*kernels, form, with_sum, padded, clamped, 0, true);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("NCHWc depthwise band kernels (padded copy of a band of rows) match a direct loop",
          "[contrib][nchwc][Conv]") {
  struct Shape {
    int64_t in_h, in_w, k, stride, pad_begin, pad_end, dilation;
  };
  // EfficientNet's 5x5 over 7x7 and 14x14, 3x3 stride 2 with asymmetric (TF SAME) padding, a
  // dilated 3x3, a kernel wider than the image, a row narrower than one tile, and the tap widths
  // and strides with kernels of their own (3 and 5 at strides 1 and 2) over rows of several
  // tiles and a tail; ConvNeXt's 7x7 over 14x14, and 5x5 at stride 2 over 7x7.
  const Shape shapes[] = {{7, 7, 5, 1, 2, 2, 1},   {14, 14, 5, 1, 2, 2, 1}, {15, 15, 3, 2, 0, 1, 1},
                          {12, 10, 3, 1, 2, 2, 2}, {4, 3, 7, 1, 3, 3, 1},   {9, 5, 3, 2, 1, 1, 1},
                          {14, 14, 3, 1, 1, 1, 1}, {11, 21, 3, 1, 1, 1, 1}, {13, 37, 3, 2, 1, 1, 1},
                          {23, 41, 5, 2, 2, 1, 1}, {14, 14, 7, 1, 3, 3, 1}, {7, 7, 5, 2, 2, 2, 1}};
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    const auto& [name, isa, kernels] = *entry;
    for (const Shape& shape : shapes) {
      for (bool with_sum : {false, true}) {
        INFO(name << " " << shape.in_h << "x" << shape.in_w << " k " << shape.k << " stride "
                  << shape.stride << " sum " << with_sum);
        NchwcConvArgs a;
        const int64_t block = kernels->block, batch = 2;
        a.in_block = block;
        a.in_blocks = a.out_blocks = 3;
        a.in_h = shape.in_h;
        a.in_w = shape.in_w;
        a.k_h = a.k_w = shape.k;
        a.stride_h = a.stride_w = shape.stride;
        a.dil_h = a.dil_w = shape.dilation;
        a.pad_top = a.pad_left = shape.pad_begin;
        a.pad_bottom = a.pad_right = shape.pad_end;
        a.out_min = -2.0f;
        const int64_t span = a.dil_h * (a.k_h - 1) + 1;
        a.out_h = (a.in_h + shape.pad_begin + shape.pad_end - span) / a.stride_h + 1;
        a.out_w = (a.in_w + shape.pad_begin + shape.pad_end - span) / a.stride_w + 1;
        ConvBuffers buffers(a, batch, block, 1, with_sum, 7);
        // Stale values in the scratch must not leak into the padding. Image 0 runs as one band
        // of the whole plane, image 1 in bands of 3 rows and a shorter last one.
        const int64_t band_rows[] = {a.out_h, 3};
        std::vector<float> scratch(static_cast<size_t>(NchwcDepthwiseBandFloats(a, a.out_h)),
                                   99.0f);
        for (int64_t n = 0; n < batch; ++n) {
          for (int64_t ob = 0; ob < a.out_blocks; ++ob) {
            for (int64_t oh = 0; oh < a.out_h; oh += band_rows[n]) {
              kernels->depthwise_band(a, n, ob, oh, std::min(a.out_h, oh + band_rows[n]),
                                      scratch.data());
            }
          }
        }
        CheckOutput(a, Form::kDepthwise, block, batch, std::numeric_limits<float>::epsilon() * 100,
                    1e-4);
      }
    }
  }
}

// An NCHW input (a CNN's stem: 3 channels) with kernels `k_w` columns wide, dilated by `dil_w`,
// over rows wide enough that whole tiles read no padding, by conv_row and, without padded
// columns, (the interior rows) conv_pixels: the AVX2 window tiles read a kernel row of up to 8
// undilated columns as one tap, other kernels one column per tap.
void CheckStem(const NchwcConvKernels& kernels, int64_t k_w, int64_t dil_w, int64_t stride,
               bool padded_columns) {
  const int64_t block = kernels.block;
  NchwcConvArgs a;
  const int64_t batch = 2;
  a.in_block = 1;
  a.in_blocks = 3;
  a.out_blocks = kFilterBlocks;
  a.in_h = 6;
  a.in_w = 41;
  a.k_h = 3;
  a.k_w = k_w;
  a.stride_h = a.stride_w = stride;
  a.dil_w = dil_w;
  a.pad_top = a.pad_bottom = 1;
  a.pad_left = padded_columns ? dil_w * (k_w - 1) / 2 : 0;
  a.out_min = -0.75f;
  a.out_max = 1.5f;
  a.out_h = (a.in_h + a.pad_top + a.pad_bottom - (a.k_h - 1) - 1) / a.stride_h + 1;
  a.out_w = (a.in_w + 2 * a.pad_left - a.dil_w * (a.k_w - 1) - 1) / a.stride_w + 1;
  ConvBuffers buffers(a, batch, block, a.in_blocks, true, 11);
  std::vector<float> scratch(static_cast<size_t>(NchwcConvScratchFloats(a)));
  for (int64_t n = 0; n < batch; ++n) {
    ForEachFilterBlockCall(kernels, a.out_blocks, [&](int64_t ob, int64_t count) {
      for (int64_t oh = 0; oh < a.out_h; ++oh) {
        kernels.conv_row(a, n, ob, count, oh, 0, a.out_w, scratch.data());
      }
    });
  }
  CheckOutput(a, Form::kPlain, block, batch, std::numeric_limits<float>::epsilon() * 100, 1e-4);
  if (padded_columns) return;
  std::fill(buffers.y.begin(), buffers.y.end(), -1.0f);
  int64_t lo = 0, hi = 0;
  NchwcInteriorRows(a, lo, hi);
  for (int64_t n = 0; n < batch; ++n) {
    ForEachFilterBlockCall(kernels, a.out_blocks, [&](int64_t ob, int64_t count) {
      for (int64_t oh = 0; oh < a.out_h; ++oh) {
        if (oh < lo || oh >= hi) kernels.conv_row(a, n, ob, count, oh, 0, a.out_w, scratch.data());
      }
      if (hi > lo) kernels.conv_pixels(a, n, ob, count, lo * a.out_w, hi * a.out_w);
    });
  }
  CheckOutput(a, Form::kPlain, block, batch, std::numeric_limits<float>::epsilon() * 100, 1e-4);
}

TEST_CASE("NCHWc conv microkernels of NCHW input take kernel rows of any width",
          "[contrib][nchwc][Conv]") {
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    const auto& [name, isa, kernels] = *entry;
    for (const int64_t k_w : {1, 3, 7, 8, 9}) {
      for (const int64_t dil_w : {1, 2}) {
        for (const int64_t stride : {1, 2}) {
          for (const bool padded_columns : {true, false}) {
            INFO(name << " k_w " << k_w << " dil_w " << dil_w << " stride " << stride
                      << " padded columns " << padded_columns);
            CheckStem(*kernels, k_w, dil_w, stride, padded_columns);
          }
        }
      }
    }
  }
}

// conv_pixels over the rows whose taps read no padding (rows above them padded, columns not),
// in runs of uneven lengths that start and end anywhere in a row; the other rows by conv_row.
// `deep_blocks` input blocks (parts), stride `stride` and rows dilated by `dil_h`.
void CheckPixelRuns(const NchwcConvKernels& kernels, Form form, int64_t deep_blocks, int64_t stride,
                    int64_t dil_h, bool with_sum, bool sum_in_y) {
  const int64_t block = kernels.block;
  NchwcConvArgs a;
  const int64_t batch = 2;
  a.in_block = form == Form::kPlain ? 1 : block;
  a.in_blocks = form == Form::kPlain ? 3 : deep_blocks;
  a.out_blocks = kFilterBlocks;
  a.in_h = 9;
  a.in_w = 11;
  a.k_h = a.k_w = 3;
  a.stride_h = a.stride_w = stride;
  a.dil_h = dil_h;
  a.pad_top = 1;
  a.pad_bottom = 2;
  a.out_min = -0.75f;
  a.out_max = 1.5f;
  a.out_h = (a.in_h + a.pad_top + a.pad_bottom - a.dil_h * (a.k_h - 1) - 1) / a.stride_h + 1;
  a.out_w = (a.in_w - a.dil_w * (a.k_w - 1) - 1) / a.stride_w + 1;
  ConvBuffers buffers(a, batch, block, a.in_blocks * a.in_block, with_sum, 7);
  if (sum_in_y) {
    buffers.y = buffers.sum;
    a.sum = a.y = buffers.y.data();
  }
  int64_t lo = 0, hi = 0;
  NchwcInteriorRows(a, lo, hi);
  REQUIRE(lo > 0);
  REQUIRE(hi > lo);
  std::vector<float> scratch(static_cast<size_t>(NchwcConvScratchFloats(a)));
  const int64_t lengths[] = {13, 1, 7, 5, 2, 6, 3, 4, 8, 12};
  for (int64_t n = 0; n < batch; ++n) {
    ForEachFilterBlockCall(kernels, a.out_blocks, [&](int64_t ob, int64_t count) {
      for (int64_t oh = 0; oh < a.out_h; ++oh) {
        if (oh < lo || oh >= hi) kernels.conv_row(a, n, ob, count, oh, 0, a.out_w, scratch.data());
      }
      for (int64_t begin = lo * a.out_w, i = ob; begin < hi * a.out_w; ++i) {
        const int64_t end = std::min(hi * a.out_w, begin + lengths[i % 10]);
        kernels.conv_pixels(a, n, ob, count, begin, end);
        begin = end;
      }
    });
  }
  if (sum_in_y) a.sum = buffers.sum.data();
  CheckOutput(a, form, block, batch, std::numeric_limits<float>::epsilon() * 100, 1e-4);
}

TEST_CASE("NCHWc conv microkernels run pixels across row ends and match a direct loop",
          "[contrib][nchwc][Conv]") {
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    const auto& [name, isa, kernels] = *entry;
    for (const Form form : {Form::kBlocked, Form::kPlain}) {
      for (const int64_t blocks : {2, 40}) {
        if (form == Form::kPlain && blocks > 2) continue;
        for (const int64_t stride : {1, 2}) {
          for (const int64_t dil_h : {1, 2}) {
            for (const bool with_sum : {false, true}) {
              INFO(name << " form " << static_cast<int>(form) << " blocks " << blocks << " stride "
                        << stride << " dil_h " << dil_h << " sum " << with_sum);
              CheckPixelRuns(*kernels, form, blocks, stride, dil_h, with_sum, false);
            }
          }
        }
      }
      INFO(name << " sum in y");
      CheckPixelRuns(*kernels, form, form == Form::kPlain ? 2 : 40, 1, 1, true, true);
    }
  }
}

TEST_CASE("NCHWc conv microkernels sum deep layers' channels in parts and match a direct loop",
          "[contrib][nchwc][Conv]") {
  // 1x1 filters of 4 output blocks fill a part at 8 input blocks (B = 16): 9 blocks sum in two
  // uneven parts, 40 in five, through the output. 3x3 ones of B = 8 likewise; of B = 16 (36 KB a
  // block) in parts of one block where L1 holds one (48 KB), else of what half of L2 holds: 14
  // blocks of 1 MB, one of 64 KB. The 5 output blocks make a second, narrower group whose
  // filters the first one's last part prefetches.
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    const auto& [name, isa, kernels] = *entry;
    for (const CpuCaches caches : {CpuCaches{32 << 10, 1 << 20}, CpuCaches{48 << 10, 2 << 20},
                                   CpuCaches{16 << 10, 64 << 10}}) {
      for (const int64_t blocks : {9, 40}) {
        for (bool pointwise : {true, false}) {
          for (bool with_sum : {false, true}) {
            for (bool padded : {false, true}) {
              INFO(name << " L1 " << caches.l1_data_bytes << " L2 " << caches.l2_bytes << " blocks "
                        << blocks << " pointwise " << pointwise << " sum " << with_sum << " padded "
                        << padded);
              CheckKernels(*kernels, Form::kBlocked, with_sum, padded && !pointwise, true, blocks,
                           pointwise, 1, false, caches);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("NCHWc conv microkernels add a sum held in the output's own buffer",
          "[contrib][nchwc][Conv]") {
  // The Sum planned in place: each form reads a sum element before writing it, and deep layers'
  // parts add it once, with the first part's sums.
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    const auto& [name, isa, kernels] = *entry;
    for (const Form form : {Form::kBlocked, Form::kPlain, Form::kDepthwise}) {
      INFO(name << " form " << static_cast<int>(form));
      CheckKernels(*kernels, form, true, true, true, 0, false, 1, true);
    }
    for (const int64_t blocks : {9, 40}) {
      for (bool pointwise : {true, false}) {
        INFO(name << " blocks " << blocks << " pointwise " << pointwise);
        CheckKernels(*kernels, Form::kBlocked, true, !pointwise, false, blocks, pointwise, 1, true);
      }
    }
  }
}

TEST_CASE("NCHWc conv microkernels skip kernel columns that read only padding",
          "[contrib][nchwc][Conv]") {
  // Columns dilated by 6 over 19: the outer taps read the image for some tiles only; by 24 (as
  // DeepLab's ASPP), never: only the centre column does.
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    const auto& [name, isa, kernels] = *entry;
    for (const int64_t dilation : {6, 24}) {
      for (const Form form : {Form::kBlocked, Form::kPlain}) {
        INFO(name << " dilation " << dilation << " form " << static_cast<int>(form));
        CheckKernels(*kernels, form, true, true, true, 0, false, dilation);
      }
    }
  }
}

// A 3x3 stride-1 convolution through Winograd F(4x4, 3x3) against the direct loop: images whose
// sides are not multiples of the 4-pixel tile, padding on some sides only, two images; `large`
// images span several chunks of tiles, cut inside tile rows and across images.
void CheckWinograd(const NchwcConvKernels& kernels, int64_t pad, bool with_sum, bool clamped,
                   bool large, ThreadPool* pool) {
  const int64_t block = kernels.block;
  NchwcConvArgs a;
  const int64_t batch = 2;
  a.in_block = block;
  // Large: channel blocks in several of the filters' partial sums (kWinogradChannelsPerSum).
  a.in_blocks = large ? 9 : 3;
  a.out_blocks = 2;
  a.in_h = large ? 30 : 11;
  a.in_w = large ? 37 : 14;
  a.k_h = a.k_w = 3;
  a.pad_top = a.pad_bottom = pad;
  a.pad_left = pad;
  a.pad_right = 0;
  if (clamped) {
    a.out_min = -0.75f;
    a.out_max = 1.5f;
  }
  a.out_h = a.in_h + 2 * pad - 2;
  a.out_w = a.in_w + pad - 2;
  const int64_t filters = a.out_blocks * block, channels = a.in_blocks * block;
  ConvBuffers buffers(a, batch, block, channels, with_sum, 5);
  const NchwcWinogradFilters transformed(buffers.w.data(), filters, channels, block);
  RunNchwcWinograd(kernels, a, batch, transformed, nullptr, pool);
  // The transforms scale values by up to 8 (A^T) and 5 (B^T) before rounding: a few float ulps
  // of the products' magnitude, not of the result's.
  CheckOutput(a, Form::kBlocked, block, batch, 1e-4, 2e-4);
}

// Filters too large for a chunk of tiles to fit L2 (160 x 48 channels): chunks of as many tiles as
// stream through L3 (276 of the 288 here), then the rest.
void CheckStreamedWinograd(const NchwcConvKernels& kernels) {
  const int64_t block = kernels.block;
  NchwcConvArgs a;
  const int64_t batch = 2;
  a.in_block = block;
  a.in_blocks = 160 / block;
  a.out_blocks = 48 / block;
  a.in_h = a.in_w = 48;
  a.k_h = a.k_w = 3;
  a.pad_top = a.pad_bottom = a.pad_left = a.pad_right = 1;
  a.out_h = a.out_w = 48;
  const int64_t filters = a.out_blocks * block, channels = a.in_blocks * block;
  ConvBuffers buffers(a, batch, block, channels, false, 9);
  const NchwcWinogradFilters transformed(buffers.w.data(), filters, channels, block);
  RunNchwcWinograd(kernels, a, batch, transformed, nullptr, nullptr);
  CheckOutput(a, Form::kBlocked, block, batch, 1e-4, 2e-4);
}

TEST_CASE("NCHWc Winograd F(4x4, 3x3) of every usable instruction set matches a direct loop",
          "[contrib][nchwc][Conv]") {
  ThreadPool pool("test", 2, false);
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    const auto& [name, isa, kernels] = *entry;
    for (int64_t pad : {0, 1}) {
      for (bool with_sum : {false, true}) {
        for (bool clamped : {false, true}) {
          INFO(name << " pad " << pad << " sum " << with_sum << " clamped " << clamped);
          CheckWinograd(*kernels, pad, with_sum, clamped, false, nullptr);
        }
      }
    }
    INFO(name << " on two threads");
    CheckWinograd(*kernels, 1, true, false, false, &pool);
    INFO(name << " in chunks");
    CheckWinograd(*kernels, 1, true, true, true, nullptr);
    CheckWinograd(*kernels, 1, false, false, true, &pool);
    INFO(name << " in chunks streamed through L3");
    CheckStreamedWinograd(*kernels);
  }
}

TEST_CASE("NCHWc Winograd keeps its rounding near the direct kernels' over many channels",
          "[contrib][nchwc][Conv]") {
  // Mask R-CNN's mask head (256 channels, post-ReLU) failed against ORT when the 36 pointwise
  // products were summed over all channels in one float32 sum (nchwc_winograd.h): the RMS error
  // against float64 here, relative to the output's RMS, must stay at the partial sums' level.
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    const auto& [name, isa, kernels] = *entry;
    INFO(name);
    const int64_t block = kernels->block, channels = 256;
    NchwcConvArgs a;
    a.in_block = block;
    a.in_blocks = channels / block;
    a.out_blocks = 1;
    a.in_h = a.in_w = a.out_h = a.out_w = 28;
    a.k_h = a.k_w = 3;
    a.pad_top = a.pad_bottom = a.pad_left = a.pad_right = 1;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> activations(0.0f, 1.0f);
    std::normal_distribution<float> weights(0.0f, std::sqrt(2.0f / (9 * channels)));
    std::vector<float> x(static_cast<size_t>(channels * 28 * 28)),
        w(static_cast<size_t>(block * channels * 9));
    for (float& v : x) v = activations(rng);
    for (float& v : w) v = weights(rng);
    std::vector<float> y(static_cast<size_t>(block * 28 * 28));
    a.x = x.data();
    a.w = w.data();
    a.y = y.data();
    const NchwcWinogradFilters transformed(w.data(), block, channels, block);
    RunNchwcWinograd(*kernels, a, 1, transformed, nullptr, nullptr);
    double error = 0, energy = 0;
    for (int64_t m = 0; m < block; ++m) {
      for (int64_t oh = 0; oh < 28; ++oh) {
        for (int64_t ow = 0; ow < 28; ++ow) {
          double exact = 0;
          for (int64_t c = 0; c < channels; ++c) {
            for (int64_t kh = 0; kh < 3; ++kh) {
              for (int64_t kw = 0; kw < 3; ++kw) {
                const int64_t ih = oh - 1 + kh, iw = ow - 1 + kw;
                if (ih < 0 || ih >= 28 || iw < 0 || iw >= 28) continue;
                const int64_t ib = c / block, bi = c % block;
                exact +=
                    static_cast<double>(
                        x[static_cast<size_t>(((ib * 28 + ih) * 28 + iw) * block + bi)]) *
                    w[static_cast<size_t>((((ib * 3 + kh) * 3 + kw) * block + bi) * block + m)];
              }
            }
          }
          const double got = y[static_cast<size_t>((oh * 28 + ow) * block + m)];
          error += (got - exact) * (got - exact);
          energy += exact * exact;
        }
      }
    }
    // One sum over all channels: 0.97e-6 to 1.06e-6 here; partial sums: 4.3e-7 to 4.8e-7.
    CHECK(std::sqrt(error / energy) < 7e-7);
  }
}

// The narrow-group kernel (groups of as many filters as channels that do not fill whole
// blocks) against a direct loop over plain NCHW copies of the same data.
struct NarrowCase {
  int64_t groups, group_channels, size, kernel, stride, pad, dilation;
};

void CheckNarrowGroups(const NchwcConvKernels& kernels, const NarrowCase& c, bool with_sum) {
  const int64_t block = kernels.block;
  const int64_t batch = 2;
  const int64_t channels = c.groups * c.group_channels;
  const int64_t blocks = (channels + block - 1) / block;
  NchwcConvArgs a;
  a.in_block = block;
  a.in_blocks = blocks;
  a.out_blocks = blocks;
  a.group_channels = c.group_channels;
  a.groups = c.groups;
  a.in_h = c.size;
  a.in_w = c.size + 3;
  a.k_h = a.k_w = c.kernel;
  a.stride_h = a.stride_w = c.stride;
  a.dil_h = a.dil_w = c.dilation;
  a.pad_top = a.pad_left = c.pad;
  const int64_t span = (c.kernel - 1) * c.dilation + 1;
  a.out_h = (a.in_h + 2 * c.pad - span) / c.stride + 1;
  a.out_w = (a.in_w + 2 * c.pad - span) / c.stride + 1;
  a.out_min = -1.5f;
  a.out_max = 4.0f;
  const int64_t taps = c.kernel * c.kernel;
  // Plain tensors: x [N, C, H, W], w [C, group_channels, KH, KW], sum and y [N, C, OH, OW].
  const std::vector<float> x = Random(static_cast<size_t>(batch * channels * a.in_h * a.in_w), 1);
  const std::vector<float> w = Random(static_cast<size_t>(channels * c.group_channels * taps), 2);
  const std::vector<float> bias = Random(static_cast<size_t>(channels), 3);
  const std::vector<float> sum =
      Random(static_cast<size_t>(batch * channels * a.out_h * a.out_w), 4);
  // Blocked copies; padding channels of x hold values the zero filters must ignore.
  std::vector<float> xb(static_cast<size_t>(batch * blocks * block * a.in_h * a.in_w), 7.0f);
  std::vector<float> wb(static_cast<size_t>(blocks * c.group_channels * taps * block), 0.0f);
  std::vector<float> bb(static_cast<size_t>(blocks * block), 0.0f);
  std::vector<float> sb(static_cast<size_t>(batch * blocks * block * a.out_h * a.out_w), 0.0f);
  const int64_t in_plane = a.in_h * a.in_w, out_plane = a.out_h * a.out_w;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t ch = 0; ch < channels; ++ch) {
      for (int64_t p = 0; p < in_plane; ++p) {
        xb[static_cast<size_t>(((n * blocks + ch / block) * in_plane + p) * block + ch % block)] =
            x[static_cast<size_t>((n * channels + ch) * in_plane + p)];
      }
      for (int64_t p = 0; p < out_plane; ++p) {
        sb[static_cast<size_t>(((n * blocks + ch / block) * out_plane + p) * block + ch % block)] =
            sum[static_cast<size_t>((n * channels + ch) * out_plane + p)];
      }
    }
  }
  for (int64_t m = 0; m < channels; ++m) {
    bb[static_cast<size_t>(m)] = bias[static_cast<size_t>(m)];
    for (int64_t i = 0; i < c.group_channels; ++i) {
      for (int64_t t = 0; t < taps; ++t) {
        wb[static_cast<size_t>(((m / block * c.group_channels + i) * taps + t) * block +
                               m % block)] =
            w[static_cast<size_t>((m * c.group_channels + i) * taps + t)];
      }
    }
  }
  std::vector<float> y(sb.size(), -9.0f);
  a.x = xb.data();
  a.w = wb.data();
  a.bias = bb.data();
  a.sum = with_sum ? sb.data() : nullptr;
  a.y = y.data();
  std::vector<float> scratch(static_cast<size_t>(NchwcConvScratchFloats(a)));
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t ob = 0; ob < blocks; ++ob) {
      for (int64_t oh = 0; oh < a.out_h; ++oh) {
        REQUIRE(kernels.narrow_group_row(a, n, ob, oh, scratch.data()));
      }
    }
  }
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t m = 0; m < channels; ++m) {
      const int64_t g = m / c.group_channels;
      for (int64_t oh = 0; oh < a.out_h; ++oh) {
        for (int64_t ow = 0; ow < a.out_w; ++ow) {
          double expected = bias[static_cast<size_t>(m)];
          for (int64_t i = 0; i < c.group_channels; ++i) {
            for (int64_t kh = 0; kh < c.kernel; ++kh) {
              for (int64_t kw = 0; kw < c.kernel; ++kw) {
                const int64_t ih = oh * c.stride - c.pad + kh * c.dilation;
                const int64_t iw = ow * c.stride - c.pad + kw * c.dilation;
                if (ih < 0 || ih >= a.in_h || iw < 0 || iw >= a.in_w) continue;
                expected +=
                    static_cast<double>(x[static_cast<size_t>(
                        ((n * channels + g * c.group_channels + i) * a.in_h + ih) * a.in_w + iw)]) *
                    w[static_cast<size_t>((m * c.group_channels + i) * taps + kh * c.kernel + kw)];
              }
            }
          }
          const int64_t p = oh * a.out_w + ow;
          if (with_sum) expected += sum[static_cast<size_t>((n * channels + m) * out_plane + p)];
          expected = std::clamp(expected, -1.5, 4.0);
          INFO("n " << n << " m " << m << " oh " << oh << " ow " << ow);
          REQUIRE(y[static_cast<size_t>(((n * blocks + m / block) * out_plane + p) * block +
                                        m % block)] == Approx(expected).margin(1e-4));
        }
      }
    }
  }
}

TEST_CASE("NCHWc narrow-group conv kernels match a direct loop", "[contrib][nchwc][Conv]") {
  // RegNet's 24-channel groups (3 of them, and an odd 7 at stride 2), ResNeXt's 4, and 12, 5 and
  // 10 channels whose groups straddle block edges, with padding, dilation and a 5x5 kernel; 8, 4
  // and 2 channels whose groups read only their own block (permuted), and 13 groups of 8 whose
  // last block is half padding.
  const NarrowCase cases[] = {
      {3, 24, 9, 3, 1, 1, 1}, {7, 24, 6, 3, 2, 1, 1}, {8, 4, 7, 3, 1, 1, 1},
      {5, 12, 8, 3, 1, 2, 2}, {6, 5, 7, 5, 1, 2, 1},  {3, 10, 13, 3, 2, 0, 1},
      {6, 8, 7, 3, 2, 1, 1},  {16, 2, 6, 3, 1, 1, 1}, {13, 8, 5, 3, 1, 1, 1},
  };
  for (const auto* entry : RunnableEntries(kNchwcConvKernels)) {
    const auto& [name, isa, kernels] = *entry;
    for (const NarrowCase& c : cases) {
      if (c.group_channels % kernels->block == 0) continue;
      for (bool with_sum : {false, true}) {
        INFO(name << " groups " << c.groups << " x " << c.group_channels << " kernel " << c.kernel
                  << " stride " << c.stride << " sum " << with_sum);
        CheckNarrowGroups(*kernels, c, with_sum);
      }
    }
  }
}

}  // namespace
}  // namespace ort::test
