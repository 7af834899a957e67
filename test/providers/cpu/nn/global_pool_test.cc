#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from a numpy loop over output positions and window taps.
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX2x3x2x3 = {
    -3.75f, -2.75f, 2.5f, 2.25f,  1.0f, 3.25f, 2.0f,   -1.5f, 1.25f,  -1.25f, 2.0f,  -1.0f,
    -2.75f, 3.0f,   1.5f, 2.0f,   0.5f, 2.25f, -0.5f,  0.5f,  -3.5f,  0.5f,   2.5f,  1.75f,
    2.5f,   -0.0f,  3.0f, -3.25f, 3.0f, -1.0f, -3.25f, 1.0f,  -0.25f, -0.5f,  2.75f, -3.0f};

}  // namespace

TEST_CASE("Global pools reduce every spatial position",
          "[nn][GlobalAveragePool][GlobalMaxPool][GlobalLpPool]") {
  OpTester("GlobalAveragePool", 1)
      .Input<float>("x", {2, 3, 2, 3}, kX2x3x2x3)
      .Output<float>("y", {2, 3, 1, 1},
                     {0.41666666f, 0.25f, 1.0833334f, 0.20833333f, 0.70833331f, -0.54166669f})
      .Run();
  OpTester("GlobalMaxPool", 1)
      .Input<float>("x", {2, 3, 2, 3}, kX2x3x2x3)
      .Output<float>("y", {2, 3, 1, 1}, {3.25f, 2.0f, 3.0f, 2.5f, 3.0f, 2.75f})
      .Run();
  OpTester("GlobalLpPool", 2)
      .Input<float>("x", {2, 3, 2, 3}, kX2x3x2x3)
      .Output<float>("y", {2, 3, 1, 1},
                     {6.6708322f, 3.7914376f, 5.3033009f, 4.7236109f, 5.9843545f, 5.3326821f})
      .Run();
  OpTester("GlobalLpPool", 2)
      .AttrInt("p", 1)
      .Input<float>("x", {2, 3, 2, 3}, kX2x3x2x3)
      .Output<float>("y", {2, 3, 1, 1}, {15.5f, 9.0f, 12.0f, 9.25f, 12.75f, 10.75f})
      .Run();
  OpTester("GlobalAveragePool", 1)
      .Input<float>("x", {2, 3, 3},
                    {-3.75f, -2.75f, 2.5f, 2.0f, -1.5f, 1.25f, -2.75f, 3.0f, 1.5f, -0.5f, 0.5f,
                     -3.5f, 2.5f, -0.0f, 3.0f, -3.25f, 1.0f, -0.25f})
      .Output<float>("y", {2, 3, 1},
                     {-1.3333334f, 0.58333331f, 0.58333331f, -1.1666666f, 1.8333334f, -0.83333331f})
      .Run();
}

TEST_CASE("GlobalLpPool opset 1 takes a float p", "[nn][GlobalLpPool]") {
  // (|1|^1.5 + |-4|^1.5)^(1 / 1.5) = 9^(2/3).
  OpTester("GlobalLpPool", 1)
      .AttrFloat("p", 1.5f)
      .Input<float>("x", {1, 1, 2}, {1, -4})
      .Output<float>("y", {1, 1, 1}, {4.3267487f})
      .Run();
}

}  // namespace ort::test
