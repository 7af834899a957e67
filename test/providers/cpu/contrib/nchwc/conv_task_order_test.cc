// nchwc Conv splits its work into tasks whose order depends on whether a group's filters or an
// image is the larger; every order must reach every (image, group, filter block, row) once. The
// expected values come from a direct NCHW loop in this file.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "lib/common/cpu_info.h"
#include "test/providers/cpu/contrib/nchwc/nchwc_test_util.h"

namespace ort::test {
namespace {

struct GroupedCase {
  int64_t batch, channels, filters, group, size, kernel, pad;
  int64_t height = 0;  // rows of the image when not `size`
  int64_t stride = 1;
  int64_t dilation = 1;
};

std::vector<float> Random(size_t count, uint32_t seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& v : values) v = uniform(engine);
  return values;
}

int64_t Height(const GroupedCase& g) { return g.height > 0 ? g.height : g.size; }

int64_t OutSize(const GroupedCase& g, int64_t size) {
  return (size + 2 * g.pad - g.dilation * (g.kernel - 1) - 1) / g.stride + 1;
}

// Square kernel, the same stride and dilation along both axes.
std::vector<float> DirectConv(const GroupedCase& g, const std::vector<float>& x,
                              const std::vector<float>& w, const std::vector<float>& b) {
  const int64_t in_per_group = g.channels / g.group, out_per_group = g.filters / g.group;
  const int64_t height = Height(g);
  const int64_t out_size = OutSize(g, g.size);
  const int64_t out_height = OutSize(g, height);
  std::vector<float> y(static_cast<size_t>(g.batch * g.filters * out_height * out_size));
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t m = 0; m < g.filters; ++m) {
      const int64_t c0 = m / out_per_group * in_per_group;
      for (int64_t oh = 0; oh < out_height; ++oh) {
        for (int64_t ow = 0; ow < out_size; ++ow) {
          double sum = b[static_cast<size_t>(m)];
          for (int64_t c = 0; c < in_per_group; ++c) {
            for (int64_t kh = 0; kh < g.kernel; ++kh) {
              for (int64_t kw = 0; kw < g.kernel; ++kw) {
                const int64_t ih = oh * g.stride - g.pad + kh * g.dilation;
                const int64_t iw = ow * g.stride - g.pad + kw * g.dilation;
                if (ih < 0 || ih >= height || iw < 0 || iw >= g.size) continue;
                sum += static_cast<double>(x[static_cast<size_t>(
                           ((n * g.channels + c0 + c) * height + ih) * g.size + iw)]) *
                       w[static_cast<size_t>(((m * in_per_group + c) * g.kernel + kh) * g.kernel +
                                             kw)];
              }
            }
          }
          y[static_cast<size_t>(((n * g.filters + m) * out_height + oh) * out_size + ow)] =
              static_cast<float>(sum);
        }
      }
    }
  }
  return y;
}

void Check(const GroupedCase& g, int threads) {
  NchwcConvCase c;
  const int64_t height = Height(g);
  c.x_dims = {g.batch, g.channels, height, g.size};
  c.x = Random(static_cast<size_t>(g.batch * g.channels * height * g.size), 1);
  c.w_dims = {g.filters, g.channels / g.group, g.kernel, g.kernel};
  c.w = Random(static_cast<size_t>(g.filters * g.channels / g.group * g.kernel * g.kernel), 2);
  c.b = Random(static_cast<size_t>(g.filters), 3);
  c.y_dims = {g.batch, g.filters, OutSize(g, height), OutSize(g, g.size)};
  c.y = DirectConv(g, c.x, c.w, c.b);
  const int64_t pad = g.pad;
  const int64_t group = g.group;
  const int64_t stride = g.stride;
  const int64_t dilation = g.dilation;
  c.attributes = [pad, group, stride, dilation](OpTester& t) {
    t.AttrInts("pads", {pad, pad, pad, pad})
        .AttrInt("group", group)
        .AttrInts("strides", {stride, stride})
        .AttrInts("dilations", {dilation, dilation});
  };
  c.threads = threads;
  c.atol = 1e-4;
  RunNchwcConv(c);
}

}  // namespace

TEST_CASE("nchwc Conv computes every block of every image and group in either task order",
          "[contrib][nchwc][Conv]") {
  // Groups of 16 channels fill whole blocks of 8 and 16; 80 filters per group are several
  // filter-block tasks of a row.
  const int threads = GENERATE(1, 2);
  SECTION("1x1 filters smaller than the image: a row's blocks adjacent") {
    Check({2, 32, 160, 2, 20, 1, 0}, threads);
  }
  SECTION("3x3 filters larger than the image: a block's rows adjacent") {
    Check({2, 32, 160, 2, 6, 3, 1}, threads);
  }
  SECTION("3x3 filters smaller than the image, one group") {
    Check({2, 16, 96, 1, 30, 3, 1}, threads);
  }
  SECTION("rows whose input outgrows L2: column ranges, prefetched tiles") {
    // 64 channels (16 streams of blocks of 16 and more) of 5 tap rows of 480 columns (614 KB
    // a row, an image larger than its 512 KB of filters): ranges of 192 columns (5x5 filters:
    // Winograd would take 3x3s).
    Check({1, 64, 80, 1, 480, 5, 2, 5}, threads);
  }
  SECTION("1x1 filters over a small image: even column ranges, so that threads share it") {
    // 49 pixels as 24 + 25; 196 as eight ranges, for two filter groups of 4 + 1 blocks of 16.
    Check({1, 32, 48, 1, 7, 1, 0}, threads);
    Check({1, 32, 80, 1, 14, 1, 0}, threads);
  }
  SECTION("strided 1x1 filters: the read pixels gathered into an image of their own") {
    // Sides that the stride does not divide (13 -> 7 columns, 11 -> 4 rows at stride 3), and
    // a padded one, which reads the image in place.
    Check({2, 32, 160, 2, 13, 1, 0, 11, 2}, threads);
    Check({1, 16, 96, 1, 13, 1, 0, 11, 3}, threads);
    Check({1, 16, 96, 1, 13, 1, 1, 11, 2}, threads);
  }
  SECTION("an odd number of filter blocks: the last call of a row takes three") {
    // Three blocks per group and five in all exist only with blocks of 8 (AVX2, portable).
    if (NchwcBlockSize() == 8) {
      Check({2, 48, 48, 2, 9, 3, 1}, threads);
      Check({1, 16, 40, 1, 14, 1, 0}, threads);
    }
  }
  SECTION("left and right padding copied with the image once per call") {
    // Two groups over 14 columns (tiles of 6 + 4 + 4 on AVX2); a 5x5 at stride 2; padding of
    // k - 1, where the edge columns read one image column each.
    Check({2, 32, 160, 2, 14, 3, 1}, threads);
    Check({1, 16, 96, 1, 13, 5, 2, 9, 2}, threads);
    Check({1, 16, 48, 1, 7, 3, 2}, threads);
  }
  SECTION("rows whose taps read no padding: runs of pixels across row ends") {
    // 7x7 in two groups (edge rows and one run of 35 pixels per block group); 17 x 9 at stride
    // 2 without padding (every row in runs); 10 columns by 23 rows, long enough for several
    // runs per image.
    Check({2, 32, 160, 2, 7, 3, 1}, threads);
    Check({1, 16, 96, 1, 17, 3, 0, 9, 2}, threads);
    Check({1, 16, 48, 1, 10, 3, 1, 23}, threads);
  }
  SECTION("windows whose taps but one read only padding: 1x1 convolutions of that tap") {
    // Dilated by 6 over 5x4 (as DeepLab's ASPP by 24 over 14x14), also at stride 2 and in two
    // groups; a padded 3x3 over a 1x1 image; dilated by 2, where every tap reads the image for
    // some outputs (the full window).
    Check({2, 32, 160, 2, 5, 3, 6, 4, 1, 6}, threads);
    Check({1, 16, 96, 1, 5, 3, 6, 4, 2, 6}, threads);
    Check({2, 16, 96, 1, 1, 3, 1, 1}, threads);
    Check({1, 16, 96, 1, 5, 3, 2, 4, 1, 2}, threads);
  }
}

}  // namespace ort::test
