// com.microsoft QLinearSigmoid and QLinearLeakyRelu and this engine's QLinearHardSigmoid on
// hand-derived values: y = round_half_even(f((x - x_zero) x_scale) / y_scale) + y_zero,
// saturated.
#include <catch2/catch.hpp>

#include <cmath>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("QLinearLeakyRelu maps each value through its table", "[quantization][QLinearLookup]") {
  // x_scale 0.5, zero 128; y_scale 0.25, zero 100; alpha 0.1.
  // 128 -> 0 -> 100; 130 -> 1 -> 104; 120 -> -0.4 -> -1.6 -> 98; 0 -> -6.4 -> -25.6 -> 74;
  // 255 -> 63.5 -> 254 + 100, saturated to 255.
  OpTester("QLinearLeakyRelu", 1, "com.microsoft")
      .AttrFloat("alpha", 0.1f)
      .Input<uint8_t>("x", {5}, {128, 130, 120, 0, 255})
      .Input<float>("x_scale", {}, {0.5f})
      .Input<uint8_t>("x_zero_point", {}, {128})
      .Input<float>("y_scale", {}, {0.25f})
      .Input<uint8_t>("y_zero_point", {}, {100})
      .Output<uint8_t>("y", {5}, {100, 104, 98, 74, 255})
      .Run();
}

TEST_CASE("QLinearSigmoid of int8 values", "[quantization][QLinearLookup]") {
  // x_scale 0.1, zero 0; y_scale 1/256, zero -128: 0 -> 0.5 -> 128 - 128 = 0; 10 ->
  // sigmoid(1) = 0.731 -> 187.15 -> 59; 127 -> 255.99 -> 127 (saturated); -128 -> ~0 -> -128.
  OpTester("QLinearSigmoid", 1, "com.microsoft")
      .Input<int8_t>("x", {4}, {0, 10, 127, -128})
      .Input<float>("x_scale", {}, {0.1f})
      .Input<int8_t>("x_zero_point", {}, {0})
      .Input<float>("y_scale", {}, {1.0f / 256.0f})
      .Input<int8_t>("y_zero_point", {}, {-128})
      .Output<int8_t>("y", {4}, {0, 59, 127, -128})
      .Run();
}

TEST_CASE("QLinearHardSigmoid over more values than one vector", "[quantization][QLinearLookup]") {
  // x_scale 0.1, zero 100; y_scale 0.5 / 100, zero 0; alpha 0.2, beta 0.5: 150 values x = i,
  // y = round(clamp(0.02 (i - 100) + 0.5, 0, 1) * 200), the table lookups of several 64-byte
  // vectors and a tail.
  std::vector<uint8_t> x(150), y(150);
  for (int i = 0; i < 150; ++i) {
    x[i] = static_cast<uint8_t>(i);
    const double gate = std::clamp(0.02 * (i - 100) + 0.5, 0.0, 1.0);
    y[i] = static_cast<uint8_t>(std::nearbyint(gate * 200.0));
  }
  OpTester("QLinearHardSigmoid", 1, "com.microsoft")
      .AttrFloat("alpha", 0.2f)
      .AttrFloat("beta", 0.5f)
      .Input<uint8_t>("x", {150}, x)
      .Input<float>("x_scale", {}, {0.1f})
      .Input<uint8_t>("x_zero_point", {}, {100})
      .Input<float>("y_scale", {}, {0.005f})
      .Input<uint8_t>("y_zero_point", {}, {0})
      .Output<uint8_t>("y", {150}, y)
      .Run();
}

}  // namespace ort::test
