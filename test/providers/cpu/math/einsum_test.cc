#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values from numpy.einsum.
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kA2x3x4 = {1.5f,  1.5f,  1.25f,  -1.0f, -1.75f, 1.75f,  0.5f,  -2.0f,
                                    1.75f, 2.0f,  -0.75f, 1.25f, -1.75f, -0.25f, 1.25f, -0.25f,
                                    0.0f,  -1.5f, 1.25f,  -0.0f, -1.0f,  1.0f,   2.0f,  0.25f};
const std::vector<float> kB2x4x5 = {1.0f,   2.0f,   -2.0f,  0.5f,   1.75f,  -1.5f,  -1.0f,  0.25f,
                                    1.0f,   0.25f,  0.25f,  -1.75f, 1.0f,   -0.75f, -1.75f, 1.75f,
                                    0.75f,  -0.25f, 1.0f,   -0.0f,  -1.5f,  0.5f,   1.0f,   1.0f,
                                    0.25f,  1.75f,  1.75f,  1.5f,   -0.5f,  -1.0f,  0.0f,   0.5f,
                                    -1.25f, 0.25f,  -0.25f, -2.0f,  -0.25f, -0.5f,  1.75f,  -1.75f};
const std::vector<float> kM3x3 = {1.75f, 1.75f, 0.5f, -1.25f, 1.25f, -1.25f, -0.75f, 0.75f, -0.25f};
const std::vector<float> kY3x3 = {1.75f, -1.25f, -0.75f, 1.75f, 1.25f, 0.75f, 0.5f, -1.25f, -0.25f};
const std::vector<float> kD2x3x3 = {-0.5f, -0.5f, 2.0f,   1.25f, 0.0f,  0.0f,
                                    1.75f, -0.5f, 1.25f,  1.0f,  1.0f,  -0.25f,
                                    0.75f, 1.25f, -0.75f, 1.0f,  -0.0f, 0.25f};
const std::vector<float> kA2x1x3x4 = {-0.25f, -0.5f,  1.0f,  -0.5f,  -1.25f, 1.25f,  -0.5f,  0.25f,
                                      2.0f,   0.5f,   0.0f,  -0.75f, 0.75f,  1.75f,  0.75f,  1.0f,
                                      -0.75f, -0.75f, -0.5f, -0.0f,  1.5f,   -0.25f, -1.25f, 0.25f};
const std::vector<float> kX3x4 = {-0.25f, -0.5f, 0.5f,  1.5f,  -1.25f, 0.5f,
                                  0.5f,   -0.0f, -0.5f, 1.75f, 1.25f,  -1.5f};
const std::vector<float> kY4x2 = {-2.0f, -1.0f, -0.25f, -1.25f, -0.75f, 0.75f, 1.0f, 1.25f};

}  // namespace

TEST_CASE("Einsum batched matmul, transpose and implicit output", "[math][Einsum]") {
  OpTester("Einsum", 12)
      .AttrString("equation", "bij,bjk->bik")
      .Input<float>("a", {2, 3, 4}, kA2x3x4)
      .Input<float>("b", {2, 4, 5}, kB2x4x5)
      .Output<float>("y", {2, 3, 5},
                     {-2.1875f, -1.4375f, -1.125f, 0.3125f,  0.8125f,  -7.75f,  -7.625f,  4.9375f,
                      -1.5f,    -3.5f,    0.75f,   3.75f,    -4.0625f, 4.6875f, 4.875f,   2.6875f,
                      -0.625f,  -3.5625f, -1.75f,  -0.0625f, -2.625f,  -2.0f,   -3.8125f, 1.0625f,
                      1.1875f,  2.75f,    2.1875f, -2.125f,  -0.5625f, -2.1875f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "ij->ji")
      .Input<float>("m", {3, 3}, kM3x3)
      .Output<float>("y", {3, 3}, kY3x3)
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "bij,bjk")
      .Input<float>("a", {2, 3, 4}, kA2x3x4)
      .Input<float>("b", {2, 4, 5}, kB2x4x5)
      .Output<float>("y", {3, 5},
                     {0.5f, -2.0625f, -4.6875f, -1.4375f, 0.75f, -10.375f, -9.625f, 1.125f,
                      -0.4375f, -2.3125f, 3.5f, 5.9375f, -6.1875f, 4.125f, 2.6875f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "ba")
      .Input<float>("m", {3, 3}, kM3x3)
      .Output<float>("y", {3, 3}, kY3x3)
      .Run();
}

TEST_CASE("Einsum sums, inner and outer products", "[math][Einsum]") {
  OpTester("Einsum", 12)
      .AttrString("equation", "ij->i")
      .Input<float>("m", {3, 3}, kM3x3)
      .Output<float>("y", {3}, {4.0f, -1.25f, -0.25f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "i,i")
      .Input<float>("v", {4}, {-0.25f, -0.75f, -1.75f, -0.5f})
      .Input<float>("w", {4}, {1.25f, 1.25f, -1.75f, 0.25f})
      .Output<float>("y", {}, {1.6875f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "i,j->ij")
      .Input<float>("v", {4}, {-0.25f, -0.75f, -1.75f, -0.5f})
      .Input<float>("w", {3}, {1.25f, 1.25f, -1.75f})
      .Output<float>("y", {4, 3},
                     {-0.3125f, -0.3125f, 0.4375f, -0.9375f, -0.9375f, 1.3125f, -2.1875f, -2.1875f,
                      3.0625f, -0.625f, -0.625f, 0.875f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "bij->")
      .Input<float>("a", {2, 3, 4}, kA2x3x4)
      .Output<float>("y", {}, {7.0f})
      .Run();
}

TEST_CASE("Einsum diagonals and traces", "[math][Einsum]") {
  OpTester("Einsum", 12)
      .AttrString("equation", "ii->i")
      .Input<float>("m", {3, 3}, kM3x3)
      .Output<float>("y", {3}, {1.75f, 1.25f, -0.25f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "ii")
      .Input<float>("m", {3, 3}, kM3x3)
      .Output<float>("y", {}, {2.75f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "...ii->...i")
      .Input<float>("d", {2, 3, 3}, kD2x3x3)
      .Output<float>("y", {2, 3}, {-0.5f, 0.0f, 1.25f, 1.0f, 1.25f, 0.25f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "bii,bi->b")
      .Input<float>("d", {2, 3, 3}, kD2x3x3)
      .Input<float>("e", {2, 3}, {-0.5f, -0.5f, 2.0f, 1.0f, 1.0f, -0.25f})
      .Output<float>("y", {2}, {2.75f, 2.1875f})
      .Run();
}

TEST_CASE("Einsum broadcasts ellipsis dimensions", "[math][Einsum]") {
  OpTester("Einsum", 12)
      .AttrString("equation", "...ij,...jk->...ik")
      .Input<float>("a", {2, 1, 3, 4}, kA2x1x3x4)
      .Input<float>("b", {5, 4, 2},
                    {-1.0f,  0.5f,  -0.75f, 1.75f,  -0.25f, 0.25f, 0.25f, -0.25f, 2.0f,  -1.75f,
                     1.0f,   -1.0f, -1.75f, -1.25f, 1.0f,   1.75f, 1.0f,  -0.75f, -0.0f, -1.5f,
                     -0.25f, -1.0f, -1.75f, -0.75f, 1.75f,  0.0f,  -1.0f, -1.5f,  1.5f,  -1.75f,
                     -1.75f, -1.5f, 1.0f,   1.75f,  -1.5f,  0.5f,  0.5f,  0.0f,   -2.0f, 0.75f})
      .Output<float>(
          "y", {2, 5, 3, 2},
          {0.25f,   -0.625f, 0.5f,     1.375f,   -2.5625f, 2.0625f,  -3.25f,   -1.1875f, -0.125f,
           2.0f,    3.75f,   -5.3125f, 0.375f,   0.3125f,  -1.5625f, -0.625f,  3.3125f,  -1.6875f,
           2.4375f, -0.25f,  -4.625f,  -1.375f,  4.3125f,  0.375f,   2.0f,     -1.0625f, -3.875f,
           -1.375f, 2.75f,   3.1875f,  -2.0f,    3.375f,   1.4375f,  -1.8125f, -0.9375f, -0.0625f,
           2.9375f, -2.25f,  -1.375f,  2.6875f,  5.1875f,  -0.375f,  -1.1875f, -4.6875f, -0.625f,
           2.1875f, 1.375f,  0.3125f,  -1.0625f, -5.4375f, -1.3125f, 2.0f,     0.5625f,  2.1875f,
           -3.5f,   2.9375f, 0.125f,   -1.6875f, 0.75f,    2.6875f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "...j,j")
      .Input<float>("a", {2, 1, 3, 4}, kA2x1x3x4)
      .Input<float>("v", {4}, {-0.25f, -0.75f, -1.75f, -0.5f})
      .Output<float>("y", {2, 1, 3}, {-1.0625f, 0.125f, -0.5f, -3.3125f, 1.625f, 1.875f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "...c,cd->...d")
      .Input<float>("a", {2, 3, 4}, kA2x3x4)
      .Input<float>("b", {4, 2}, {-0.25f, 1.75f, 2.0f, 0.5f, -1.5f, -0.75f, 0.5f, 1.5f})
      .Output<float>("y", {2, 3, 2},
                     {0.25f, 0.9375f, 2.1875f, -5.5625f, 5.3125f, 6.5f, -2.0625f, -4.5f, -4.875f,
                      -1.6875f, -0.625f, -2.375f})
      .Run();
}

TEST_CASE("Einsum chains three operands and sums labels used once", "[math][Einsum]") {
  OpTester("Einsum", 12)
      .AttrString("equation", "ij,jk,kl->il")
      .Input<float>("x", {3, 4}, kX3x4)
      .Input<float>("y", {4, 2}, kY4x2)
      .Input<float>("z", {2, 5},
                    {1.25f, -0.75f, 0.25f, 1.0f, 0.5f, 0.25f, 1.25f, 1.75f, 1.5f, -1.0f})
      .Output<float>("out", {3, 5},
                     {2.96875f, 2.59375f, 5.90625f, 6.4375f, -2.25f, 2.75f, -0.25f, 2.25f, 3.5f,
                      0.0f, -3.0f, -1.875f, -5.0625f, -5.8125f, 1.6875f})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "ij,kl->i")
      .Input<float>("x", {3, 4}, kX3x4)
      .Input<float>("y", {4, 2}, kY4x2)
      .Output<float>("out", {3}, {-2.8125f, 0.5625f, -2.25f})
      .Run();
}

TEST_CASE("Einsum on integers wraps like the element type, and on double", "[math][Einsum]") {
  OpTester("Einsum", 12)
      .AttrString("equation", "ij,jk->ik")
      .Input<int8_t>("a", {2, 3}, {68, -77, 24, -43, 33, 60})
      .Input<int8_t>("b", {3, 2}, {35, -37, -59, 48, 8, 18})
      .Output<int8_t>("y", {2, 2}, {-53, 108, 100, -97})
      .Run();
  OpTester("Einsum", 12)
      .AttrString("equation", "ij->j")
      .Input<double>("a", {2, 2}, {2.0, -1.5, 1.25, -1.75})
      .Output<double>("y", {2}, {3.25, -3.25})
      .Run();
}

TEST_CASE("Einsum rejects malformed equations", "[math][Einsum]") {
  OpTester("Einsum", 12)
      .AttrString("equation", "ij,jk->ik")
      .Input<float>("a", {3, 3}, kM3x3)
      .Output<float>("y", {3, 3}, kM3x3)
      .RunExpectingError("2 input terms");
  OpTester("Einsum", 12)
      .AttrString("equation", "ijk->i")
      .Input<float>("a", {3, 3}, kM3x3)
      .Output<float>("y", {3}, {1.75f, 1.75f, 0.5f})
      .RunExpectingError("does not fit");
  OpTester("Einsum", 12)
      .AttrString("equation", "ij,jk->ik")
      .Input<float>("a", {3, 3}, kM3x3)
      .Input<float>("b", {2, 2}, {0.5f, 0.25f, -1.0f, -1.0f})
      .Output<float>("y", {3, 3}, kM3x3)
      .RunExpectingError("label dims differ");
  OpTester("Einsum", 12)
      .AttrString("equation", "ij->iz")
      .Input<float>("a", {3, 3}, kM3x3)
      .Output<float>("y", {3, 3}, kM3x3)
      .RunExpectingError("uses one no input has");
  OpTester("Einsum", 12)
      .AttrString("equation", "i1->i")
      .Input<float>("a", {3, 3}, kM3x3)
      .Output<float>("y", {3}, {1.75f, 1.75f, 0.5f})
      .RunExpectingError("invalid label");
}

}  // namespace ort::test
