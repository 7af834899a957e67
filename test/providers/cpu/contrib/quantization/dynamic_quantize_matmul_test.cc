// com.microsoft DynamicQuantizeMatMul against numpy: A quantized as DynamicQuantizeLinear does
// (scale (3.1 + 1.25) / 255, zero point 73), the int64 product with B, times a_scale b_scale[j]
// in float32, plus the bias.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("DynamicQuantizeMatMul quantizes A per call and scales per column",
          "[quantization][DynamicQuantizeMatMul]") {
  for (const bool constant : {false, true}) {
    INFO("constant B " << constant);
    OpTester test("DynamicQuantizeMatMul", 1, "com.microsoft");
    test.Input<float>("a", {2, 3}, {0.5f, -1.25f, 2.0f, 3.1f, 0.0f, -0.7f});
    if (constant) {
      test.ConstantInput<int8_t>("b", {3, 2}, {10, -20, 30, 5, -7, 127});
    } else {
      test.Input<int8_t>("b", {3, 2}, {10, -20, 30, 5, -7, 127});
    }
    test.Input<float>("b_scale", {2}, {0.01f, 0.02f})
        .Input<int8_t>("b_zero_point", {2}, {0, 0})
        .Input<float>("bias", {2}, {0.5f, -1.0f})
        .Output<float>("y", {2, 2}, {0.0361706018f, 3.74712944f, 0.859429359f, -4.01838827f})
        .Run();
  }
}

TEST_CASE("DynamicQuantizeMatMul of an all-zero A is its bias",
          "[quantization][DynamicQuantizeMatMul]") {
  OpTester("DynamicQuantizeMatMul", 1, "com.microsoft")
      .Input<float>("a", {1, 2}, {0.0f, 0.0f})
      .Input<int8_t>("b", {2, 2}, {1, 2, 3, 4})
      .Input<float>("b_scale", {}, {0.5f})
      .OmittedInput()
      .Input<float>("bias", {2}, {1.5f, -2.0f})
      .Output<float>("y", {1, 2}, {1.5f, -2.0f})
      .Run();
}

}  // namespace ort::test
