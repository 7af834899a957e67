#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values from the numpy formulas of the ONNX reference.
namespace ort::test {

TEST_CASE("DynamicQuantizeLinear derives scale and zero point from the range",
          "[quantization][DynamicQuantizeLinear]") {
  OpTester("DynamicQuantizeLinear", 11)
      .Input<float>("x", {2, 3}, {1.5f, -0.25f, 3.0f, -2.0f, 0.0f, 0.60000002f})
      .Output<uint8_t>("y", {2, 3}, {178, 89, 255, 0, 102, 133})
      .Output<float>("y_scale", {}, {0.019607844f})
      .Output<uint8_t>("y_zero_point", {}, {102})
      .Run();
  OpTester("DynamicQuantizeLinear", 11)
      .Input<float>("x", {3}, {1.0f, 2.0f, 4.0f})
      .Output<uint8_t>("y", {3}, {64, 127, 255})
      .Output<float>("y_scale", {}, {0.015686275f})
      .Output<uint8_t>("y_zero_point", {}, {0})
      .Run();
  OpTester("DynamicQuantizeLinear", 11)
      .Input<float>("x", {3}, {0.0f, 0.0f, 0.0f})
      .Output<uint8_t>("y", {3}, {0, 0, 0})
      .Output<float>("y_scale", {}, {0.0f})
      .Output<uint8_t>("y_zero_point", {}, {0})
      .Run();
}

}  // namespace ort::test
