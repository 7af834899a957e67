// Every instruction set's logistic kernel this CPU can run against sigmoid computed in double:
// the Sigmoid, Swish and QuickGelu kernels and fused activations reach only the best one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "providers/cpu/kernels/common/isa_dispatch.h"
#include "providers/cpu/kernels/common/logistic.h"

namespace ort::test {
namespace {

double ExactSigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// The kernel rounds alpha x log2(e) to float: an error of |alpha x| 2^-24 in the exponent is
// |alpha x| 1.2e-7 relative in the result, on top of the few ulp of the polynomial and
// reciprocal. A sigmoid below the smallest normal float may be anything down to 0 (times x).
void CheckClose(float got, double want, double alpha_x, double x) {
  const double tolerance = std::abs(want) * (4e-7 + 1.2e-7 * std::abs(alpha_x)) +
                           std::numeric_limits<float>::min() * std::max(1.0, std::abs(x));
  INFO("alpha x " << alpha_x << ": got " << got << ", want " << want);
  CHECK(std::abs(static_cast<double>(got) - want) <= tolerance);
}

std::vector<float> Inputs() {
  std::vector<float> x;
  for (float v = -110.0f; v <= 110.0f; v += 0.0137f) x.push_back(v);
  for (float v = -1e-3f; v <= 1e-3f; v += 3.1e-6f) x.push_back(v);
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-30f, 1e30f, -1e30f, 87.3f, -87.3f, 126.5f, -126.5f}) {
    x.push_back(v);
  }
  return x;
}

TEST_CASE("logistic kernels match sigmoid and x sigmoid(alpha x) in double", "[logistic]") {
  const std::vector<float> x = Inputs();
  for (const auto* entry : RunnableEntries(kLogisticKernels)) {
    for (const float alpha : {1.0f, 1.702f, -0.5f}) {
      for (const bool times_input : {false, true}) {
        INFO(entry->name << " alpha " << alpha << " times_input " << times_input);
        std::vector<float> y(x.size());
        entry->kernel->run(x.data(), y.data(), static_cast<int64_t>(x.size()), alpha, times_input);
        for (size_t i = 0; i < x.size(); ++i) {
          const double alpha_x = static_cast<double>(alpha) * x[i];
          const double sigmoid = ExactSigmoid(alpha_x);
          CheckClose(y[i], times_input ? x[i] * sigmoid : sigmoid, alpha_x, x[i]);
        }
      }
    }
  }
}

TEST_CASE("logistic kernels handle every tail length in place", "[logistic]") {
  for (const auto* entry : RunnableEntries(kLogisticKernels)) {
    for (int64_t count = 1; count <= 37; ++count) {
      INFO(entry->name << " count " << count);
      std::vector<float> data(static_cast<size_t>(count) + 1, 7.0f);
      for (int64_t i = 0; i < count; ++i) data[static_cast<size_t>(i)] = 0.25f * float(i) - 4.0f;
      const std::vector<float> x = data;
      entry->kernel->run(data.data(), data.data(), count, 1.0f, true);
      for (int64_t i = 0; i < count; ++i) {
        const float xi = x[static_cast<size_t>(i)];
        CheckClose(data[static_cast<size_t>(i)], xi * ExactSigmoid(xi), xi, xi);
      }
      CHECK(data.back() == 7.0f);  // past the end untouched
    }
  }
}

TEST_CASE("logistic kernels saturate at infinities and keep NaN", "[logistic]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float x[] = {inf, -inf, std::numeric_limits<float>::quiet_NaN()};
  for (const auto* entry : RunnableEntries(kLogisticKernels)) {
    INFO(entry->name);
    float sigmoid[3], silu[3];
    entry->kernel->run(x, sigmoid, 3, 1.0f, false);
    entry->kernel->run(x, silu, 3, 1.0f, true);
    CHECK(sigmoid[0] >= 1.0f - std::numeric_limits<float>::epsilon());  // 1 within 2 ulp
    CHECK(sigmoid[1] <= std::numeric_limits<float>::min());
    CHECK(std::isnan(sigmoid[2]));
    CHECK(silu[0] == inf);
    CHECK(std::isnan(silu[2]));
  }
}

}  // namespace
}  // namespace ort::test
