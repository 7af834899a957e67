// Every instruction set's NCHWc pooling row kernels this CPU can run against a direct loop over
// the same blocked plane: the pool kernel tests reach only the set matching NchwcBlockSize().
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.h"

namespace ort::test {
namespace {

// Output (oh, ow, channel b): the max or mean of the window's taps inside the plane; the mean
// divides by the taps inside the plane or, with count_include_pad, inside plane plus padding.
float Reference(const NchwcPoolArgs& a, bool max, const std::vector<float>& x, int64_t block,
                int64_t oh, int64_t ow, int64_t b) {
  float result = max ? std::numeric_limits<float>::lowest() : 0.0f;
  int64_t inside = 0, padded = 0;
  for (int64_t kh = 0; kh < a.k_h; ++kh) {
    for (int64_t kw = 0; kw < a.k_w; ++kw) {
      const int64_t ih = oh * a.stride_h - a.pad_top + kh * a.dil_h;
      const int64_t iw = ow * a.stride_w - a.pad_left + kw * a.dil_w;
      if (ih < a.in_h + a.pad_bottom && iw < a.in_w + a.pad_right) ++padded;
      if (ih < 0 || ih >= a.in_h || iw < 0 || iw >= a.in_w) continue;
      ++inside;
      const float v = x[static_cast<size_t>((ih * a.in_w + iw) * block + b)];
      result = max ? std::max(result, v) : result + v;
    }
  }
  if (max) return result;
  const int64_t divisor = a.count_include_pad ? padded : inside;
  return divisor == 0 ? 0.0f : result / static_cast<float>(divisor);
}

void CheckKernels(const NchwcPoolKernels& kernels, bool max, bool padded, bool include_pad,
                  int64_t dilation) {
  const int64_t block = kernels.block;
  NchwcPoolArgs a;
  a.in_h = 9;
  a.in_w = 13;
  a.k_h = 3;
  a.k_w = 3;
  a.stride_h = 2;
  a.stride_w = padded ? 2 : 1;
  a.dil_h = a.dil_w = dilation;
  a.pad_top = a.pad_left = padded ? 1 : 0;
  // Trailing pads as ceil_mode leaves them: one more output than the input fills.
  a.pad_bottom = a.pad_right = padded ? 2 : 0;
  a.count_include_pad = include_pad;
  a.out_h = (a.in_h + a.pad_top + a.pad_bottom - dilation * (a.k_h - 1) - 1) / a.stride_h + 1;
  a.out_w = (a.in_w + a.pad_left + a.pad_right - dilation * (a.k_w - 1) - 1) / a.stride_w + 1;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> values(-16, 16);
  std::vector<float> x(static_cast<size_t>(a.in_h * a.in_w * block));
  for (float& v : x) v = static_cast<float>(values(rng)) / 8.0f;
  std::vector<float> y(static_cast<size_t>(a.out_h * a.out_w * block), -99.0f);
  for (int64_t oh = 0; oh < a.out_h; ++oh) {
    (max ? kernels.max_row : kernels.average_row)(a, x.data(), oh, y.data() + oh * a.out_w * block);
  }
  for (int64_t oh = 0; oh < a.out_h; ++oh) {
    for (int64_t ow = 0; ow < a.out_w; ++ow) {
      for (int64_t b = 0; b < block; ++b) {
        INFO("oh " << oh << " ow " << ow << " b " << b);
        REQUIRE(y[static_cast<size_t>((oh * a.out_w + ow) * block + b)] ==
                Approx(Reference(a, max, x, block, oh, ow, b)).margin(1e-6));
      }
    }
  }
}

TEST_CASE("NCHWc pooling rows of every usable instruction set match a direct loop",
          "[contrib][nchwc][Pool]") {
  CHECK(BestNchwcPoolKernels().block == NchwcBlockSize());
  for (const auto* entry : RunnableEntries(kNchwcPoolKernels)) {
    const auto& [name, isa, kernels] = *entry;
    for (bool max : {true, false}) {
      for (bool padded : {false, true}) {
        for (bool include_pad : {false, true}) {
          for (int64_t dilation : {1, 2}) {
            INFO(name << " max " << max << " padded " << padded << " count_include_pad "
                      << include_pad << " dilation " << dilation);
            CheckKernels(*kernels, max, padded, include_pad, dilation);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace ort::test
