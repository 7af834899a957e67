// QLinearAdd and QLinearMul whose scale ratios are subnormal floats (an attention mask quantized
// with a scale of 1e36): the kernels take such a ratio as zero, which must leave every output as
// the exact arithmetic gives it. Values derived by hand.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("QLinearAdd and QLinearMul with subnormal scale ratios", "[contrib][QLinearAdd]") {
  // A's ratio 0.01 / 1e36 adds less than 3e-36 to each value; B's ratio is 1, so C = B.
  OpTester("QLinearAdd", 1, "com.microsoft")
      .Input<uint8_t>("A", {4}, {0, 255, 7, 200})
      .Input<float>("A_scale", {}, {0.01f})
      .Input<uint8_t>("A_zero_point", {}, {0})
      .Input<uint8_t>("B", {4}, {255, 254, 0, 128})
      .Input<float>("B_scale", {}, {1e36f})
      .Input<uint8_t>("B_zero_point", {}, {255})
      .Input<float>("C_scale", {}, {1e36f})
      .Input<uint8_t>("C_zero_point", {}, {255})
      .Output<uint8_t>("C", {4}, {255, 254, 0, 128})
      .Run();
  // 1e-20 x 1e-20 / 1: each product is below 7e-36, so C is its zero point.
  OpTester("QLinearMul", 1, "com.microsoft")
      .Input<int8_t>("A", {4}, {-128, 127, 0, 5})
      .Input<float>("A_scale", {}, {1e-20f})
      .Input<int8_t>("A_zero_point", {}, {0})
      .Input<int8_t>("B", {4}, {127, 127, -128, -7})
      .Input<float>("B_scale", {}, {1e-20f})
      .Input<int8_t>("B_zero_point", {}, {0})
      .Input<float>("C_scale", {}, {1.0f})
      .Input<int8_t>("C_zero_point", {}, {7})
      .Output<int8_t>("C", {4}, {7, 7, 7, 7})
      .Run();
}

}  // namespace ort::test
