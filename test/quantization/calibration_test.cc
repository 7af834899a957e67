// Range calibration: min/max, a percentile of |x| and the entropy threshold, on data whose answer
// is known, and over a model's computed tensors.
#include <random>

#include "lib/quantization/calibration.h"
#include "test/quantization/quantization_test_util.h"

namespace ort::test {
namespace {

TEST_CASE("The percentile threshold is the edge of the bin reaching that share of |x|",
          "[quantization]") {
  // |x| = 1..1000: the 99th percentile is 990, in a bin of width 1000/2048 ending at 990.234.
  std::vector<float> values;
  for (int i = 1; i <= 1000; ++i) values.push_back(static_cast<float>(i % 2 == 0 ? i : -i));
  AbsHistogram histogram(1000.0f, 2048);
  histogram.Add(values);
  const float threshold = PercentileThreshold(histogram, 99.0);
  CHECK(threshold >= 990.0f);
  CHECK(threshold < 990.0f + 1000.0f / 2048);
  CHECK(PercentileThreshold(histogram, 100.0) == Approx(1000.0f));
  CHECK(PercentileThreshold(histogram, 50.0) == Approx(500.0).margin(0.5));
}

TEST_CASE("The entropy threshold keeps a distribution without outliers whole", "[quantization]") {
  std::vector<float> values;
  for (int i = 0; i < 20000; ++i) values.push_back(static_cast<float>(i % 1000) / 100.0f);
  AbsHistogram histogram(9.99f, 2048);
  histogram.Add(values);
  CHECK(EntropyThreshold(histogram, 128) > 0.95f * 9.99f);
}

TEST_CASE("The entropy threshold of a Relu output is not pulled in by its zeros",
          "[quantization]") {
  // |N(0, 1)| plus as many exact zeros and a few outliers at 20. With the spike at zero counted,
  // every cut that merges it with its neighbours looks costly and the threshold falls to ~2.5
  // (numpy, same algorithm); without it, ~4.5 sigma, as for the Gaussian alone.
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> values;
  for (int i = 0; i < 200000; ++i) {
    values.push_back(std::fabs(normal(rng)));
    values.push_back(0.0f);
  }
  for (int i = 0; i < 5; ++i) values.push_back(20.0f);
  AbsHistogram histogram(20.0f, 2048);
  histogram.Add(values);
  const float threshold = EntropyThreshold(histogram, 128);
  CHECK(threshold > 3.5f);
  CHECK(threshold < 6.0f);
}

TEST_CASE("The entropy threshold cuts a Gaussian's rare outliers off", "[quantization]") {
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> values;
  for (int i = 0; i < 200000; ++i) values.push_back(normal(rng));
  for (int i = 0; i < 5; ++i) values.push_back(50.0f);
  float limit = 0;
  for (float value : values) limit = std::max(limit, std::fabs(value));
  AbsHistogram histogram(limit, 2048);
  histogram.Add(values);
  const float threshold = EntropyThreshold(histogram, 128);
  // Past 3 sigma (the smallest candidate, 128 bins, is 3.1 here) and far below the outliers.
  CHECK(threshold >= 3.0f);
  CHECK(threshold < 10.0f);
  // A 99.99th percentile sits near 3.9 sigma.
  CHECK(PercentileThreshold(histogram, 99.99) == Approx(3.9).margin(0.3));
}

TEST_CASE("CollectRanges observes model inputs and computed tensors over every set",
          "[quantization]") {
  auto model = ConvReluPoolModel();
  const auto sets = UniformSets("x", {1, 2, 6, 6}, 3, -2.0f, 1.0f);
  CalibrationOptions options;
  auto ranges = CollectRanges(*model, {"x", "relu_out", "conv_out"}, sets, options, CpuSessions());
  INFO(ranges.status().ToString());
  REQUIRE(ranges.ok());
  float low = 0, high = 0;
  for (const auto& set : sets) {
    for (float value : set[0].second.tensor().Span<float>()) {
      low = std::min(low, value);
      high = std::max(high, value);
    }
  }
  CHECK(ranges->at("x").min == low);
  CHECK(ranges->at("x").max == high);
  CHECK(ranges->at("relu_out").min == 0.0f);
  CHECK(ranges->at("relu_out").max == ranges->at("conv_out").max);
  CHECK(ranges->at("conv_out").min < 0.0f);

  // Histogram methods clip inside the observed range and keep a Relu's output non-negative.
  for (CalibrationMethod method : {CalibrationMethod::kPercentile, CalibrationMethod::kEntropy}) {
    options.method = method;
    options.percentile = 99.0;
    auto clipped = CollectRanges(*model, {"relu_out", "conv_out"}, sets, options, CpuSessions());
    REQUIRE(clipped.ok());
    CHECK(clipped->at("relu_out").min == 0.0f);
    CHECK(clipped->at("relu_out").max <= ranges->at("relu_out").max);
    CHECK(clipped->at("conv_out").min >= ranges->at("conv_out").min);
    CHECK(clipped->at("conv_out").max > 0.0f);
  }
}

TEST_CASE("Calibration methods parse by name", "[quantization]") {
  CHECK(*ParseCalibrationMethod("entropy") == CalibrationMethod::kEntropy);
  CHECK(CalibrationMethodName(*ParseCalibrationMethod("percentile")) == "percentile");
  const auto unknown = ParseCalibrationMethod("kl");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().message().find("'kl'") != std::string::npos);
}

}  // namespace
}  // namespace ort::test
