// The narrow-group NCHWc convolution kernel of every instruction set this CPU runs (groups of as
// many filters as channels that do not fill whole blocks) against a direct loop over plain NCHW
// copies of the same data.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_conv_kernel.h"

namespace ort::test {
namespace {

std::vector<float> Random(size_t size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> values(-8, 8);
  std::vector<float> out(size);
  for (float& v : out) v = static_cast<float>(values(rng)) / 8.0f;
  return out;
}

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
  // 10 channels whose groups straddle block edges, with padding, dilation and a 5x5 kernel.
  const NarrowCase cases[] = {
      {3, 24, 9, 3, 1, 1, 1}, {7, 24, 6, 3, 2, 1, 1}, {8, 4, 7, 3, 1, 1, 1},
      {5, 12, 8, 3, 1, 2, 2}, {6, 5, 7, 5, 1, 2, 1},  {3, 10, 13, 3, 2, 0, 1},
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
