// The AVX-512 depthwise kernels (VPMADDWD, VNNI's VPDPWSSD, and the byte kernel's VPDPBUSD)
// against the run's definition computed in int64 here: each QLinearConv test reaches only the
// kernels its CPU and weights select.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/onnx/nn/qlinear_depthwise.h"

namespace ort::test {
namespace {

enum class Kernel { kAvx512, kAvx512Vnni, kBytes };

// `pixels` output positions over 107 channels (a full block of 64, two full registers and a
// masked tail), three taps, uint8 X and Y; weights within int8 so that every kernel takes them.
void CheckKernel(Kernel kernel, int64_t pixels) {
  constexpr int64_t kChannels = 107, kTaps = 3, kStep = 2;
  const std::vector<int64_t> offsets = {0, kChannels, 4 * kChannels};
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(0, 255), weight(-128, 127), bias(-5000, 5000);
  std::vector<uint8_t> x(static_cast<size_t>((pixels * kStep + 4) * kChannels));
  for (auto& v : x) v = static_cast<uint8_t>(byte(rng));
  std::vector<int32_t> plain(static_cast<size_t>(kTaps * kChannels));
  for (auto& w : plain) w = weight(rng);
  std::vector<std::vector<int32_t>> halves(kTaps);
  std::vector<const int32_t*> half_pointers;
  for (int64_t t = 0; t < kTaps; ++t) {
    for (int64_t c = 0; c < kChannels; ++c) {
      halves[t].push_back(static_cast<uint16_t>(plain[t * kChannels + c]));
    }
    half_pointers.push_back(halves[t].data());
  }
  const std::vector<uint8_t> bytes = DepthwiseByteWeights(plain.data(), kTaps, kChannels);
  REQUIRE(!bytes.empty());
  std::vector<const uint8_t*> byte_pointers;
  for (int64_t t = 0; t < kTaps; ++t) byte_pointers.push_back(bytes.data() + t * 2 * 256);
  constexpr int32_t kXZero = 121, kYZero = 3;
  std::vector<int32_t> bias_values(kChannels), start(kChannels);
  std::vector<float> multipliers(kChannels);
  for (int64_t c = 0; c < kChannels; ++c) {
    bias_values[c] = bias(rng);
    int64_t weight_sum = 0;
    for (int64_t t = 0; t < kTaps; ++t) weight_sum += plain[t * kChannels + c];
    start[c] = static_cast<int32_t>(bias_values[c] - kXZero * weight_sum);
    multipliers[c] = 0.0005f * static_cast<float>(c + 1);
  }
  std::vector<int32_t> interleaved_start;
  std::vector<float> interleaved_multipliers;
  InterleaveDepthwiseChannels(start.data(), kChannels, interleaved_start);
  InterleaveDepthwiseChannels(multipliers.data(), kChannels, interleaved_multipliers);
  std::vector<uint8_t> y(static_cast<size_t>(pixels * kChannels));
  DepthwiseRun run;
  run.origin = x.data();
  run.step = kStep * kChannels;
  run.pixels = pixels;
  run.offsets = offsets.data();
  run.weights = half_pointers.data();
  run.byte_weights = byte_pointers.data();
  run.taps = kTaps;
  run.channels = kChannels;
  run.pixel_stride = kChannels;
  run.start = kernel == Kernel::kBytes ? interleaved_start.data() : start.data();
  run.multipliers = kernel == Kernel::kBytes ? interleaved_multipliers.data() : multipliers.data();
  run.y_zero = kYZero;
  run.out = y.data();
  switch (kernel) {
    case Kernel::kAvx512:
      DepthwiseRunAvx512(run, false, false);
      break;
    case Kernel::kAvx512Vnni:
      DepthwiseRunAvx512Vnni(run, false, false);
      break;
    case Kernel::kBytes:
      DepthwiseRunBytesAvx512Vnni(run, false);
      break;
  }
  for (int64_t p = 0; p < pixels; ++p) {
    for (int64_t c = 0; c < kChannels; ++c) {
      int64_t sum = bias_values[c];
      for (int64_t t = 0; t < kTaps; ++t) {
        const int64_t input = x[p * kStep * kChannels + offsets[t] + c];
        sum += (input - kXZero) * plain[t * kChannels + c];
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

TEST_CASE("AVX-512 depthwise runs match their definition", "[nn][QLinearConv]") {
  if (!HasAvx512BwVl()) {
    WARN("no AVX-512 BW/VL here: the depthwise kernels are not run");
    return;
  }
  // 7 pixels: the byte kernel's blocks of four, two and one.
  CheckKernel(Kernel::kAvx512, 7);
  if (!GetCpuFeatures().avx512_vnni) {
    WARN("no AVX-512 VNNI here: the VNNI depthwise kernels are not run");
    return;
  }
  CheckKernel(Kernel::kAvx512Vnni, 7);
  for (const int64_t pixels : {1, 2, 3, 4, 7}) {
    INFO(pixels << " pixels");
    CheckKernel(Kernel::kBytes, pixels);
  }
}

}  // namespace ort::test
