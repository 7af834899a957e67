// com.microsoft QLinearConcat and QLinearGlobalAveragePool on hand-derived values.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("QLinearConcat copies inputs quantized as the output and requantizes the others",
          "[quantization][QLinearConcat]") {
  // A shares Y's scale 0.1 and zero point 10: copied. B (scale 0.2, zero 0): x -> 2x + 10,
  // saturating at 255.
  OpTester("QLinearConcat", 1, "com.microsoft")
      .AttrInt("axis", 1)
      .Input<float>("y_scale", {}, {0.1f})
      .Input<uint8_t>("y_zero_point", {}, {10})
      .Input<uint8_t>("a", {1, 2, 2}, {0, 7, 200, 255})
      .Input<float>("a_scale", {}, {0.1f})
      .Input<uint8_t>("a_zero_point", {}, {10})
      .Input<uint8_t>("b", {1, 1, 2}, {5, 200})
      .Input<float>("b_scale", {}, {0.2f})
      .Input<uint8_t>("b_zero_point", {}, {0})
      .Output<uint8_t>("y", {1, 3, 2}, {0, 7, 200, 255, 20, 255})
      .Run();
  // int8 along the last axis: b (scale 0.5, zero -4) -> (x + 4) * 5 - 3, saturating at -128.
  OpTester("QLinearConcat", 1, "com.microsoft")
      .AttrInt("axis", -1)
      .Input<float>("y_scale", {}, {0.1f})
      .Input<int8_t>("y_zero_point", {}, {-3})
      .Input<int8_t>("a", {2, 1}, {-128, 127})
      .Input<float>("a_scale", {}, {0.1f})
      .Input<int8_t>("a_zero_point", {}, {-3})
      .Input<int8_t>("b", {2, 2}, {-4, 2, -100, 20})
      .Input<float>("b_scale", {}, {0.5f})
      .Input<int8_t>("b_zero_point", {}, {-4})
      .Output<int8_t>("y", {2, 3}, {-128, -3, 27, 127, -128, 117})
      .Run();
}

TEST_CASE("QLinearConcat rejects inputs that differ outside the axis",
          "[quantization][QLinearConcat]") {
  OpTester("QLinearConcat", 1, "com.microsoft")
      .AttrInt("axis", 0)
      .Input<float>("y_scale", {}, {0.1f})
      .Input<uint8_t>("y_zero_point", {}, {0})
      .Input<uint8_t>("a", {1, 2}, {1, 2})
      .Input<float>("a_scale", {}, {0.1f})
      .Input<uint8_t>("a_zero_point", {}, {0})
      .Input<uint8_t>("b", {1, 3}, {1, 2, 3})
      .Input<float>("b_scale", {}, {0.1f})
      .Input<uint8_t>("b_zero_point", {}, {0})
      .UncheckedOutput("y")
      .RunExpectingError("differ outside axis 0");
}

TEST_CASE("QLinearGlobalAveragePool requantizes each channel's mean, channels first or last",
          "[quantization][QLinearGlobalAveragePool]") {
  // x_scale 0.5, zero 2; y_scale 0.25, zero 1. Channel 0 holds 2, 4, 6, 8: mean 1.5 -> 7.
  // Channel 1 holds 10, 10, 10, 11: mean 4.125 -> 16.5, rounded to even 16 -> 17.
  OpTester("QLinearGlobalAveragePool", 1, "com.microsoft")
      .Input<uint8_t>("x", {1, 2, 2, 2}, {2, 4, 6, 8, 10, 10, 10, 11})
      .Input<float>("x_scale", {}, {0.5f})
      .Input<uint8_t>("x_zero_point", {}, {2})
      .Input<float>("y_scale", {}, {0.25f})
      .Input<uint8_t>("y_zero_point", {}, {1})
      .Output<uint8_t>("y", {1, 2, 1, 1}, {7, 17})
      .Run();
  OpTester("QLinearGlobalAveragePool", 1, "com.microsoft")
      .AttrInt("channels_last", 1)
      .Input<uint8_t>("x", {1, 2, 2, 2}, {2, 10, 4, 10, 6, 10, 8, 11})
      .Input<float>("x_scale", {}, {0.5f})
      .Input<uint8_t>("x_zero_point", {}, {2})
      .Input<float>("y_scale", {}, {0.25f})
      .Input<uint8_t>("y_zero_point", {}, {1})
      .Output<uint8_t>("y", {1, 1, 1, 2}, {7, 17})
      .Run();
}

}  // namespace ort::test
