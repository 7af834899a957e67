// Both AVX-512 depthwise kernels (with and without VNNI) against the run's definition computed in
// int64 here: each QLinearConv test reaches only the one kernel its CPU selects.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/onnx/nn/qlinear_depthwise.h"

namespace ort::test {
namespace {

using DepthwiseKernel = void (*)(const DepthwiseRun&, bool, bool);

// Pixels of `pixels` output positions over `channels` (a full block of 64, two full registers
// and a masked tail for 107), three taps, uint8 X and Y.
void CheckKernel(DepthwiseKernel kernel, bool zero_in_start) {
  constexpr int64_t kChannels = 107, kPixels = 5, kTaps = 3, kStep = 2;
  const std::vector<int64_t> offsets = {0, kChannels, 4 * kChannels};
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(0, 255), weight(-255, 255), bias(-5000, 5000);
  std::vector<uint8_t> x(static_cast<size_t>((kPixels * kStep + 4) * kChannels));
  for (auto& v : x) v = static_cast<uint8_t>(byte(rng));
  std::vector<std::vector<int32_t>> tap_weights(kTaps, std::vector<int32_t>(kChannels));
  std::vector<const int32_t*> weight_pointers;
  for (auto& tap : tap_weights) {
    for (auto& w : tap) w = static_cast<uint16_t>(weight(rng));
    weight_pointers.push_back(tap.data());
  }
  constexpr int32_t kXZero = 121, kYZero = 3;
  std::vector<int32_t> bias_values(kChannels), start(kChannels);
  std::vector<float> multipliers(kChannels);
  for (int64_t c = 0; c < kChannels; ++c) {
    bias_values[c] = bias(rng);
    int64_t weight_sum = 0;
    for (const auto& tap : tap_weights) weight_sum += static_cast<int16_t>(tap[c]);
    start[c] =
        zero_in_start ? static_cast<int32_t>(bias_values[c] - kXZero * weight_sum) : bias_values[c];
    multipliers[c] = 0.0005f * static_cast<float>(c + 1);
  }
  std::vector<uint8_t> y(static_cast<size_t>(kPixels * kChannels));
  DepthwiseRun run;
  run.origin = x.data();
  run.step = kStep * kChannels;
  run.pixels = kPixels;
  run.offsets = offsets.data();
  run.weights = weight_pointers.data();
  run.taps = kTaps;
  run.channels = kChannels;
  run.pixel_stride = kChannels;
  run.x_zero = kXZero;
  run.start = start.data();
  run.zero_in_start = zero_in_start;
  run.multipliers = multipliers.data();
  run.y_zero = kYZero;
  run.out = y.data();
  kernel(run, false, false);
  for (int64_t p = 0; p < kPixels; ++p) {
    for (int64_t c = 0; c < kChannels; ++c) {
      int64_t sum = bias_values[c];
      for (int64_t t = 0; t < kTaps; ++t) {
        const int64_t input = x[p * kStep * kChannels + offsets[t] + c];
        sum += (input - kXZero) * static_cast<int16_t>(tap_weights[t][c]);
      }
      const float scaled = static_cast<float>(sum) * multipliers[c];
      const float clamped = std::fmin(std::fmax(scaled, -kYZero), 255.0f - kYZero);
      const auto expected = static_cast<int>(std::nearbyint(clamped)) + kYZero;
      INFO("pixel " << p << " channel " << c);
      REQUIRE(static_cast<int>(y[p * kChannels + c]) == expected);
    }
  }
}

}  // namespace

TEST_CASE("AVX-512 depthwise runs match their definition, with and without VNNI",
          "[nn][QLinearConv]") {
  if (!HasAvx512BwVl()) {
    WARN("no AVX-512 BW/VL here: the depthwise kernels are not run");
    return;
  }
  for (const bool zero_in_start : {false, true}) {
    CheckKernel(DepthwiseRunAvx512, zero_in_start);
    if (GetCpuFeatures().avx512_vnni) {
      CheckKernel(DepthwiseRunAvx512Vnni, zero_in_start);
    } else {
      WARN("no AVX-512 VNNI here: DepthwiseRunAvx512Vnni is not run");
    }
  }
}

}  // namespace ort::test
