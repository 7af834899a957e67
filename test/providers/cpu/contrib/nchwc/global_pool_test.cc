// nchwc GlobalMaxPool and GlobalAveragePool over planes of every pixel count past the kernel's
// groups of four, against the maximum and mean worked out here (pool_test.cc's fixtures have
// 12 pixels).
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "test/providers/cpu/contrib/nchwc/nchwc_test_util.h"

namespace ort::test {

TEST_CASE("nchwc global pools reduce planes of any pixel count", "[contrib][nchwc][Pool]") {
  for (int64_t width = 1; width <= 9; ++width) {
    const std::vector<int64_t> x_dims{2, 20, 1, width};
    std::vector<float> x(static_cast<size_t>(2 * 20 * width));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 23) / 8.0f - 1.0f;
    std::vector<float> max(40), mean(40);
    for (size_t plane = 0; plane < 40; ++plane) {
      const float* values = x.data() + plane * static_cast<size_t>(width);
      max[plane] = *std::max_element(values, values + width);
      double sum = 0.0;
      for (int64_t i = 0; i < width; ++i) sum += values[i];
      mean[plane] = static_cast<float>(sum / static_cast<double>(width));
    }
    INFO("width " << width);
    RunNchwcUnary("GlobalMaxPool", {}, x_dims, x, {2, 20, 1, 1}, max);
    RunNchwcUnary("GlobalAveragePool", {}, x_dims, x, {2, 20, 1, 1}, mean);
  }
}

}  // namespace ort::test
