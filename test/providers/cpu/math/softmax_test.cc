#include <catch2/catch.hpp>

#include <cmath>
#include <optional>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

const std::vector<float> kX = {1, 2, 3, 4, 5, 1, 0, -1, 2, 3, 3, 3};  // shape [2, 2, 3]

// Runs `op`-`opset` (with `axis` unless nullopt) on kX and checks its output against `y`.
void CheckOnX(const std::string& op, int opset, std::optional<int64_t> axis, std::vector<float> y) {
  OpTester tester(op, opset);
  if (axis) tester.AttrInt("axis", *axis);
  tester.Input<float>("x", {2, 2, 3}, kX).Output<float>("y", {2, 2, 3}, std::move(y)).Run();
}

}  // namespace

// Expected values: numpy exp(x - max) / sum, over the axis (13+) or the flattened trailing
// dimensions (before 13).
TEST_CASE("Softmax along the last axis and along a middle axis", "[math][Softmax]") {
  CheckOnX("Softmax", 13, std::nullopt,
           {0.090030573f, 0.24472846f, 0.66524094f, 0.26538792f, 0.72139919f, 0.013212888f,
            0.1141952f, 0.042010065f, 0.8437947f, 0.33333334f, 0.33333334f, 0.33333334f});
  CheckOnX("Softmax", 13, 1,
           {0.047425874f, 0.047425874f, 0.88079703f, 0.95257413f, 0.95257413f, 0.11920292f,
            0.047425874f, 0.01798621f, 0.2689414f, 0.95257413f, 0.98201376f, 0.7310586f});
}

TEST_CASE("Softmax before opset 13 coerces the input to 2-D", "[math][Softmax]") {
  CheckOnX("Softmax", 11, std::nullopt,
           {0.011521929f, 0.031319849f, 0.085136175f, 0.23142411f, 0.629076f, 0.011521929f,
            0.014489908f, 0.0053305398f, 0.10706674f, 0.29103759f, 0.29103759f, 0.29103759f});
  OpTester("Softmax", 1)
      .AttrInt("axis", -2)
      .Input<double>("x", {2, 2, 3}, std::vector<double>(kX.begin(), kX.end()))
      .Output<double>("y", {2, 2, 3},
                      {0.011521929, 0.031319849, 0.085136175, 0.23142411, 0.629076, 0.011521929,
                       0.014489908, 0.0053305398, 0.10706674, 0.29103759, 0.29103759, 0.29103759})
      .Run();
}

TEST_CASE("LogSoftmax along an axis and flattened", "[math][LogSoftmax]") {
  CheckOnX("LogSoftmax", 13, 0,
           {-0.31326166f, -0.048587333f, -0.31326166f, -0.31326166f, -0.12692805f, -2.1269281f,
            -1.3132616f, -3.0485873f, -1.3132616f, -1.3132616f, -2.1269281f, -0.12692805f});
  CheckOnX("LogSoftmax", 11, 0,
           {-4.7201018f, -3.7201018f, -2.7201018f, -1.720102f, -0.72010195f, -4.7201018f,
            -5.7201018f, -6.7201018f, -3.7201018f, -2.7201018f, -2.7201018f, -2.7201018f});
}

TEST_CASE("Softmax and LogSoftmax are stable for large inputs", "[math][Softmax][LogSoftmax]") {
  OpTester("Softmax", 13)
      .Input<float>("x", {1, 3}, {1000, 1001, 1002})
      .Output<float>("y", {1, 3}, {0.090030573f, 0.24472846f, 0.66524094f})
      .Run();
  OpTester("LogSoftmax", 13)
      .Input<Float16>("x", {1, 3}, {Float16(1000.0f), Float16(1001.0f), Float16(1002.0f)})
      .Output<Float16>("y", {1, 3},
                       {Float16(-2.4076061f), Float16(-1.407606f), Float16(-0.40760601f)})
      .SetTolerance(1e-3, 1e-3)
      .Run();
}

TEST_CASE("Softmax flushes probabilities below the normal floats to zero", "[math][Softmax]") {
  // e^-95 / (1 + e^-50 + e^-95) = 5.5e-42 is subnormal: the kernel gives exactly 0 (atol 0),
  // keeping subnormals out of whatever multiplies the probabilities next.
  OpTester("Softmax", 13)
      .Input<float>("x", {1, 3}, {0.0f, -95.0f, -50.0f})
      .Output<float>("y", {1, 3}, {1.0f, 0.0f, 1.9287498e-22f})
      .SetTolerance(1e-6, 0.0)
      .Run();
}

TEST_CASE("Hardmax marks the first maximum", "[math][Hardmax]") {
  CheckOnX("Hardmax", 13, std::nullopt, {0, 0, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0});
  CheckOnX("Hardmax", 13, 1, {0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1});
  CheckOnX("Hardmax", 11, 1, {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0});
}

TEST_CASE("Softmax handles empty tensors, a large row count and bad axes", "[math][Softmax]") {
  OpTester("Softmax", 13).Input<float>("x", {0, 3}, {}).Output<float>("y", {0, 3}, {}).Run();
  const int64_t rows = 2000, columns = 37;
  std::vector<float> x(rows * columns), expected(rows * columns);
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < columns; ++c) {
      x[r * columns + c] = static_cast<float>((r * 7 + c * 3) % 11) * 0.5f;
      sum += std::exp(static_cast<double>(x[r * columns + c]));
    }
    for (int64_t c = 0; c < columns; ++c) {
      expected[r * columns + c] = static_cast<float>(std::exp(x[r * columns + c]) / sum);
    }
  }
  OpTester("Softmax", 13)
      .Input<float>("x", {rows, columns}, x)
      .Output<float>("y", {rows, columns}, expected)
      .Threads(2)
      .Run();
  OpTester("Softmax", 13)
      .AttrInt("axis", 2)
      .Input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Output<float>("y", {2, 3}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("axis");
}

}  // namespace ort::test
