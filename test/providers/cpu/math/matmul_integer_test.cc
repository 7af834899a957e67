#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values from numpy int64 matmul of the zero-point-shifted operands.
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<uint8_t> kA2x3x4 = {1,   96, 45,  159, 141, 200, 155, 20,  15,  238, 188, 195,
                                      208, 82, 135, 48,  0,   152, 57,  152, 228, 68,  65,  43};
const std::vector<int8_t> kB4x5 = {-43,  68,   41,  44,   -118, 76,  61, -72, 24,  57,
                                   -115, -109, -72, -127, 28,   -83, 19, 72,  -61, 10};
const std::vector<uint8_t> kA3x4 = {1, 96, 45, 159, 141, 200, 155, 20, 15, 238, 188, 195};

}  // namespace

TEST_CASE("MatMulInteger with per-row and scalar zero points", "[math][MatMulInteger]") {
  OpTester("MatMulInteger", 10)
      .Input<uint8_t>("a", {2, 3, 4}, kA2x3x4)
      .Input<int8_t>("b", {4, 5}, kB4x5)
      .Input<uint8_t>("a_zero_point", {3}, {3, 250, 7})
      .Input<int8_t>("b_zero_point", {}, {-2})
      .Output<int32_t>("y", {2, 3, 5},
                       {-10046, 4501,  2008,   -12128, 8851,  29934,  -5445, -11557, 19131, 4084,
                        -17991, -306,  -14584, -27343, 20387, -20804, 6148,  -2625,  -7671, -14619,
                        32353,  -5081, 2368,   15859,  16252, -13773, 13863, 3837,   2378,  -19865})
      .Run();
  OpTester("MatMulInteger", 10)
      .Input<uint8_t>("a", {3, 4}, kA3x4)
      .Input<int8_t>("b", {4, 5}, kB4x5)
      .Output<int32_t>("y", {3, 5},
                       {-11119, 4040, 1337, -13066, 8204, -10348, 5273, -18339, -9901, -698, -20362,
                        -1249, -16017, -29399, 19010})
      .Run();
  OpTester("MatMulInteger", 10)
      .Input<uint8_t>("a", {3, 4}, kA3x4)
      .Input<int8_t>("b", {4, 5}, kB4x5)
      .Input<uint8_t>("a_zero_point", {2}, {1, 2})
      .Output<int32_t>("y", {3, 5}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
      .RunExpectingError("must hold 1 or 3");
}

// A constant B is packed at session start and every batch's rows go through one product, a
// per-row zero point repeating per batch: the same numbers as above.
TEST_CASE("MatMulInteger with a constant B", "[math][MatMulInteger]") {
  OpTester("MatMulInteger", 10)
      .Input<uint8_t>("a", {2, 3, 4}, kA2x3x4)
      .ConstantInput<int8_t>("b", {4, 5}, kB4x5)
      .Input<uint8_t>("a_zero_point", {3}, {3, 250, 7})
      .ConstantInput<int8_t>("b_zero_point", {}, {-2})
      .Output<int32_t>("y", {2, 3, 5},
                       {-10046, 4501,  2008,   -12128, 8851,  29934,  -5445, -11557, 19131, 4084,
                        -17991, -306,  -14584, -27343, 20387, -20804, 6148,  -2625,  -7671, -14619,
                        32353,  -5081, 2368,   15859,  16252, -13773, 13863, 3837,   2378,  -19865})
      .Run();
  OpTester("MatMulInteger", 10)
      .Input<uint8_t>("a", {3, 4}, kA3x4)
      .ConstantInput<int8_t>("b", {4, 5}, kB4x5)
      .Output<int32_t>("y", {3, 5},
                       {-11119, 4040, 1337, -13066, 8204, -10348, 5273, -18339, -9901, -698, -20362,
                        -1249, -16017, -29399, 19010})
      .Run();
}

TEST_CASE("QLinearMatMul requantizes per output column", "[math][QLinearMatMul]") {
  for (int opset : {10, 21}) {
    OpTester("QLinearMatMul", opset)
        .Input<uint8_t>("a", {2, 3, 4}, kA2x3x4)
        .Input<float>("a_scale", {}, {0.02f})
        .Input<uint8_t>("a_zero_point", {}, {5})
        .Input<int8_t>("b", {4, 5}, kB4x5)
        .Input<float>("b_scale", {5}, {0.1f, 0.050000001f, 0.2f, 0.0099999998f, 0.029999999f})
        .Input<int8_t>("b_zero_point", {}, {-2})
        .Input<float>("y_scale", {}, {0.40000001f})
        .Input<int8_t>("y_zero_point", {}, {-3})
        .Output<int8_t>("y", {2, 3, 5},
                        {-52,  8,  18,  -9, 10,  -46, 12, -128, -7, -2, -95, -4, -128, -17, 28,
                         -105, 12, -29, -7, -25, -34, 13, -36,  -9, 16, -73, 32, 35,   -2,  -33})
        .Run();
    OpTester("QLinearMatMul", opset)
        .Input<uint8_t>("a", {2, 3, 4}, kA2x3x4)
        .Input<float>("a_scale", {}, {0.02f})
        .Input<uint8_t>("a_zero_point", {}, {5})
        .ConstantInput<int8_t>("b", {4, 5}, kB4x5)
        .Input<float>("b_scale", {5}, {0.1f, 0.050000001f, 0.2f, 0.0099999998f, 0.029999999f})
        .ConstantInput<int8_t>("b_zero_point", {}, {-2})
        .Input<float>("y_scale", {}, {0.40000001f})
        .Input<int8_t>("y_zero_point", {}, {-3})
        .Output<int8_t>("y", {2, 3, 5},
                        {-52,  8,  18,  -9, 10,  -46, 12, -128, -7, -2, -95, -4, -128, -17, 28,
                         -105, 12, -29, -7, -25, -34, 13, -36,  -9, 16, -73, 32, 35,   -2,  -33})
        .Run();
  }
}

}  // namespace ort::test
