#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

// Expected values below come from numpy (float32 results of np.exp, np.sin, ... on kInput).
const std::vector<float> kInput = {-2.5f, -0.5f, 0.0f, 0.3f, 1.5f, 2.5f};

void CheckUnary(const char* op, int opset, const std::vector<float>& input,
                const std::vector<float>& expected) {
  OpTester(op, opset)
      .Input<float>("x", {static_cast<int64_t>(input.size())}, input)
      .Output<float>("y", {static_cast<int64_t>(expected.size())}, expected)
      .Run();
}

}  // namespace

TEST_CASE("Exp, Log, Sqrt, Reciprocal match numpy", "[math][Exp][Log][Sqrt][Reciprocal]") {
  CheckUnary("Exp", 13, kInput,
             {0.0820850059f, 0.606530666f, 1, 1.34985876f, 4.48168898f, 12.1824932f});
  CheckUnary("Exp", 6, {-200.0f, 100.0f}, {0.0f, std::numeric_limits<float>::infinity()});
  const std::vector<float> positive = {1.0f, 1.5f, 3.0f, 10.0f};
  CheckUnary("Log", 13, positive, {0, 0.405465096f, 1.09861231f, 2.30258512f});
  CheckUnary("Sqrt", 13, positive, {1, 1.22474492f, 1.73205078f, 3.1622777f});
  CheckUnary("Reciprocal", 13, positive, {1, 0.666666687f, 0.333333343f, 0.100000001f});
  OpTester("Exp", 13)
      .Input<double>("x", {2}, {0.0, 1.0})
      .Output<double>("y", {2}, {1.0, 2.718281828459045})
      .Run();
}

TEST_CASE("Floor, Ceil and Round (half to even)", "[math][Floor][Ceil][Round]") {
  CheckUnary("Floor", 13, kInput, {-3, -1, 0, 0, 1, 2});
  CheckUnary("Ceil", 13, kInput, {-2, -0.0f, 0, 1, 2, 3});
  CheckUnary("Round", 11, {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 2.6f, -2.4f},
             {-2, -2, -0.0f, 0, 2, 2, 3, -2});
}

TEST_CASE("Abs, Neg and Sign on floats and integers", "[math][Abs][Neg][Sign]") {
  CheckUnary("Abs", 13, kInput, {2.5f, 0.5f, 0, 0.3f, 1.5f, 2.5f});
  CheckUnary("Neg", 13, kInput, {2.5f, 0.5f, -0.0f, -0.3f, -1.5f, -2.5f});
  CheckUnary("Sign", 13, kInput, {-1, -1, 0, 1, 1, 1});
  // The most negative integer has no positive counterpart: it wraps onto itself.
  OpTester("Abs", 13)
      .Input<int8_t>("x", {4}, {-128, -5, 0, 7})
      .Output<int8_t>("y", {4}, {-128, 5, 0, 7})
      .Run();
  OpTester("Neg", 13)
      .Input<int64_t>("x", {3}, {std::numeric_limits<int64_t>::min(), -3, 4})
      .Output<int64_t>("y", {3}, {std::numeric_limits<int64_t>::min(), 3, -4})
      .Run();
  OpTester("Sign", 13)
      .Input<uint8_t>("x", {3}, {0, 1, 200})
      .Output<uint8_t>("y", {3}, {0, 1, 1})
      .Run();
  OpTester("Abs", 6)
      .Input<Float16>("x", {2}, {Float16(-1.5f), Float16(2.0f)})
      .Output<Float16>("y", {2}, {Float16(1.5f), Float16(2.0f)})
      .Run();
}

TEST_CASE("Trigonometric and hyperbolic functions match numpy",
          "[math][Sin][Cos][Tan][Asin][Acos][Atan][Sinh][Cosh][Asinh][Acosh][Atanh]") {
  CheckUnary("Sin", 7, kInput,
             {-0.598472178f, -0.47942555f, 0, 0.295520216f, 0.997494996f, 0.598472178f});
  CheckUnary("Cos", 7, kInput,
             {-0.801143587f, 0.87758255f, 1, 0.955336511f, 0.070737198f, -0.801143587f});
  CheckUnary("Tan", 7, kInput,
             {0.747022271f, -0.546302497f, 0, 0.309336275f, 14.1014204f, -0.747022271f});
  CheckUnary("Atan", 7, kInput,
             {-1.19028997f, -0.463647604f, 0, 0.291456819f, 0.982793748f, 1.19028997f});
  CheckUnary("Sinh", 9, kInput,
             {-6.05020428f, -0.521095276f, 0, 0.304520309f, 2.12927938f, 6.05020428f});
  CheckUnary("Cosh", 9, kInput,
             {6.13228989f, 1.12762606f, 1, 1.04533839f, 2.3524096f, 6.13228989f});
  CheckUnary("Asinh", 9, kInput,
             {-1.6472311f, -0.481211811f, 0, 0.295673072f, 1.19476318f, 1.6472311f});
  const std::vector<float> unit = {-0.9f, -0.2f, 0.0f, 0.4f, 0.99f};
  CheckUnary("Asin", 7, unit, {-1.11976957f, -0.201357931f, 0, 0.411516845f, 1.42925692f});
  CheckUnary("Acos", 7, unit, {2.69056582f, 1.77215433f, 1.57079637f, 1.15927958f, 0.14153941f});
  CheckUnary("Atanh", 9, unit, {-1.47221935f, -0.202732563f, 0, 0.423648924f, 2.64665294f});
  CheckUnary("Acosh", 9, {1.0f, 1.5f, 3.0f, 10.0f}, {0, 0.962423623f, 1.76274717f, 2.99322295f});
}

TEST_CASE("Erf matches math.erf on floats, doubles and integers", "[math][Erf]") {
  CheckUnary("Erf", 13, {-3, -1, -0.5f, -0.001f, 0, 0.25f, 0.7f, 0.95f, 1.5f, 2, 4},
             {-0.999977887f, -0.842700779f, -0.520499885f, -0.00112837879f, 0, 0.276326388f,
              0.677801192f, 0.820890784f, 0.966105163f, 0.995322287f, 1});
  OpTester("Erf", 13)
      .Input<double>("x", {3}, {-1.2, 0.1, 2.2})
      .Output<double>("y", {3}, {-0.91031397822963533, 0.1124629160182849, 0.99813715370201817})
      .Run();
  // Integer erf values truncate toward zero; erf(10) rounds to exactly 1 in double.
  OpTester("Erf", 13)
      .Input<int32_t>("x", {3}, {-10, 1, 10})
      .Output<int32_t>("y", {3}, {-1, 0, 1})
      .Run();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  CheckUnary("Erf", 9, {nan, inf, -inf}, {nan, 1, -1});
}

TEST_CASE("Unary math handles empty tensors and rejects unsupported types", "[math][Exp]") {
  OpTester("Sqrt", 13).Input<float>("x", {0, 4}, {}).Output<float>("y", {0, 4}, {}).Run();
  OpTester("Exp", 13)
      .Input<int32_t>("x", {1}, {1})
      .Output<int32_t>("y", {1}, {1})
      .RunExpectingError("int32");
}

TEST_CASE("Exp splits large inputs across threads", "[math][Exp]") {
  std::vector<float> x(100000), expected(100000);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i % 200) * 0.1f - 10.0f;
    expected[i] = std::exp(x[i]);
  }
  OpTester("Exp", 13)
      .Input<float>("x", {100000}, x)
      .Output<float>("y", {100000}, expected)
      .Threads(2)
      .Run();
}

TEST_CASE("IsNaN and IsInf with detect_negative/detect_positive", "[math][IsNaN][IsInf]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {1.0f, nan, inf, -inf, 0.0f};
  OpTester("IsNaN", 13)
      .Input<float>("x", {5}, x)
      .Output<bool>("y", {5}, {false, true, false, false, false})
      .Run();
  OpTester("IsInf", 10)
      .Input<float>("x", {5}, x)
      .Output<bool>("y", {5}, {false, false, true, true, false})
      .Run();
  OpTester("IsInf", 10)
      .AttrInt("detect_negative", 0)
      .Input<float>("x", {5}, x)
      .Output<bool>("y", {5}, {false, false, true, false, false})
      .Run();
  OpTester("IsInf", 10)
      .AttrInt("detect_positive", 0)
      .Input<double>("x", {5}, {1.0, std::nan(""), HUGE_VAL, -HUGE_VAL, 0.0})
      .Output<bool>("y", {5}, {false, false, false, true, false})
      .Run();
  OpTester("IsNaN", 13)
      .Input<Float16>("x", {2}, {Float16(nan), Float16(1.0f)})
      .Output<bool>("y", {2}, {true, false})
      .Run();
}

}  // namespace ort::test
