// com.microsoft QGemm against numpy: acc = (A - 1)(B - b_zero) + C in int64, then float32
// acc * (0.05 * b_scale[j]) (/ 0.5, rounded half to even, + 10, saturated, for the 8-bit output).
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

// acc = [[20847, -25840], [-183, 1715]].
const std::vector<uint8_t> kA = {3, 10, 200, 0, 255, 7};
const std::vector<int8_t> kB = {5, -3, -7, 12, 100, -128};   // [3, 2]
const std::vector<int8_t> kBt = {5, -7, 100, -3, 12, -128};  // its transpose, [2, 3]

}  // namespace

TEST_CASE("QGemm with float output adds the int32 bias and scales per column",
          "[quantization][QGemm]") {
  for (const bool constant : {false, true}) {
    INFO("constant B " << constant);
    OpTester test("QGemm", 1, "com.microsoft");
    test.Input<uint8_t>("a", {2, 3}, kA)
        .Input<float>("a_scale", {}, {0.05f})
        .Input<uint8_t>("a_zero_point", {}, {1});
    if (constant) {
      test.ConstantInput<int8_t>("b", {3, 2}, kB);
    } else {
      test.Input<int8_t>("b", {3, 2}, kB);
    }
    test.Input<float>("b_scale", {2}, {0.01f, 0.02f})
        .Input<int8_t>("b_zero_point", {2}, {0, 2})
        .Input<int32_t>("c", {2}, {1000, -50})
        .Output<float>("y", {2, 2},
                       {10.4235000610f, -25.8400020599f, -0.0915000066f, 1.7150000334f})
        .Run();
  }
}

TEST_CASE("QGemm requantizes to 8 bits, with B transposed", "[quantization][QGemm]") {
  OpTester("QGemm", 1, "com.microsoft")
      .AttrInt("transB", 1)
      .Input<uint8_t>("a", {2, 3}, kA)
      .Input<float>("a_scale", {}, {0.05f})
      .Input<uint8_t>("a_zero_point", {}, {1})
      .ConstantInput<int8_t>("b", {2, 3}, kBt)
      .Input<float>("b_scale", {2}, {0.01f, 0.02f})
      .ConstantInput<int8_t>("b_zero_point", {2}, {0, 2})
      .Input<int32_t>("c", {2}, {1000, -50})
      .Input<float>("y_scale", {}, {0.5f})
      .Input<uint8_t>("y_zero_point", {}, {10})
      .Output<uint8_t>("y", {2, 2}, {31, 0, 10, 13})
      .Run();
}

TEST_CASE("QGemm rejects a bias that does not broadcast", "[quantization][QGemm]") {
  OpTester("QGemm", 1, "com.microsoft")
      .Input<uint8_t>("a", {2, 3}, kA)
      .Input<float>("a_scale", {}, {0.05f})
      .Input<uint8_t>("a_zero_point", {}, {1})
      .Input<int8_t>("b", {3, 2}, kB)
      .Input<float>("b_scale", {}, {0.01f})
      .Input<int8_t>("b_zero_point", {}, {0})
      .Input<int32_t>("c", {3}, {1, 2, 3})
      .UncheckedOutput("y")
      .RunExpectingError("broadcastable to [2, 2]");
}

}  // namespace ort::test
