// Expected values are numpy's: FusedMatMul as np.matmul of the transposed operands (transBatch
// moves axis 0 behind the other batch axes), FusedGemm as the activation of alpha A B + beta C.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kA3x4 = {1.875f, 0.5f,    0.75f,   1.625f,  0.375f,  1.125f,
                                  1.375f, -1.125f, -1.875f, -0.875f, -0.875f, 1.5f};
const std::vector<float> kA4x3 = {1.25f, -0.75f, -0.625f, -0.875f, 0.875f, -1.0f,
                                  2.0f,  -0.25f, -0.125f, 0.0f,    0.375f, 0.25f};

}  // namespace

TEST_CASE("FusedMatMul scales a matrix product by alpha", "[contrib][FusedMatMul]") {
  OpTester("FusedMatMul", 1, "com.microsoft")
      .Input<float>("a", {3, 4}, kA3x4)
      .Input<float>("b", {4, 2}, {1.75f, -2.0f, 0.0f, 1.375f, -1.5f, 1.25f, -1.625f, -0.125f})
      .Output<float>("y", {3, 2},
                     {-0.484375f, -2.328125f, 0.421875f, 2.65625f, -4.40625f, 1.265625f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrFloat("alpha", -0.5f)
      .Input<float>("a", {3, 4}, kA3x4)
      .Input<float>("b", {4, 2}, {1.75f, -2.0f, 0.0f, 1.375f, -1.5f, 1.25f, -1.625f, -0.125f})
      .Output<float>("y", {3, 2},
                     {0.2421875f, 1.1640625f, -0.2109375f, -1.328125f, 2.203125f, -0.6328125f})
      .Run();
}

TEST_CASE("FusedMatMul transposes either operand", "[contrib][FusedMatMul]") {
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transA", 1)
      .Input<float>("a", {4, 3}, kA4x3)
      .Input<float>("b", {4, 2}, {1.75f, -2.0f, 0.0f, 1.375f, -1.5f, 1.25f, -1.625f, -0.125f})
      .Output<float>("y", {3, 2}, {-0.8125f, -1.203125f, -1.546875f, 2.34375f, -1.3125f, -0.3125f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transB", 1)
      .Input<float>("a", {3, 4}, kA3x4)
      .Input<float>("b", {2, 4}, {0.0f, 2.0f, 1.25f, 1.25f, 0.875f, 0.5f, -0.625f, 2.0f})
      .Output<float>("y", {3, 2}, {3.96875f, 4.671875f, 2.5625f, -2.21875f, -0.96875f, 1.46875f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transA", 1)
      .AttrInt("transB", 1)
      .AttrFloat("alpha", 2.0f)
      .Input<float>("a", {4, 3}, kA4x3)
      .Input<float>("b", {2, 4}, {0.0f, 2.0f, 1.25f, 1.25f, 0.875f, 0.5f, -0.625f, 2.0f})
      .Output<float>("y", {3, 2}, {1.5f, -1.1875f, 3.8125f, 1.375f, -3.6875f, -0.9375f})
      .Run();
}

TEST_CASE("FusedMatMul broadcasts batch dimensions", "[contrib][FusedMatMul]") {
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transB", 1)
      .Input<float>("a", {2, 1, 3, 4},
                    {-0.125f, -1.125f, 1.375f, -1.375f, 1.5f,  0.5f,    -1.625f, -1.875f,
                     -0.25f,  -1.875f, -1.5f,  0.0f,    2.0f,  -0.125f, 1.25f,   1.75f,
                     1.375f,  0.5f,    -0.25f, 0.0f,    -1.0f, 0.0f,    -0.5f,   -1.0f})
      .Input<float>("b", {3, 2, 4},
                    {2.0f,   -2.0f, -1.625f, -1.25f, 1.875f, 0.75f,  1.625f, -1.25f,
                     0.875f, -0.5f, 0.0f,    -2.0f,  0.5f,   1.375f, 0.625f, -1.375f,
                     0.125f, -1.0f, 1.875f,  1.625f, -1.25f, 0.0f,   1.875f, 1.375f})
      .Output<float>("y", {2, 3, 3, 2},
                     {1.484375f, 2.875f,     6.984375f,  2.890625f, 5.6875f,   -4.3125f,
                      3.203125f, 1.140625f,  4.8125f,    3.0f,      0.71875f,  -3.640625f,
                      1.453125f, 0.84375f,   -6.40625f,  -7.5f,     -0.96875f, -2.5f,
                      0.03125f,  3.5f,       2.15625f,   2.546875f, 0.0625f,   -1.4375f,
                      -1.6875f,  -0.796875f, 0.953125f,  1.21875f,  1.125f,    0.5625f,
                      5.5625f,   2.25f,      -0.796875f, -2.1875f,  -2.6875f,  -1.0625f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrFloat("alpha", 0.25f)
      .Input<float>("a", {2, 3, 4},
                    {-0.5f,  1.25f,  -0.375f, -0.5f,   0.25f,   2.0f,    -0.5f,  0.375f,
                     -0.25f, 0.375f, -0.25f,  0.625f,  0.25f,   0.75f,   1.875f, -1.5f,
                     0.25f,  -0.25f, -0.625f, -1.125f, -1.875f, -0.375f, 1.375f, -1.625f})
      .Input<float>("b", {4, 5}, {-0.375f, 1.875f, 1.875f,  -1.125f, -2.0f,  0.75f,  -2.0f,
                                  -0.875f, 0.0f,   1.5f,    -1.625f, 0.625f, 0.125f, -1.5f,
                                  1.375f,  1.375f, -0.125f, 1.875f,  0.5f,   1.625f})
      .Output<float>(
          "y", {2, 3, 5},
          {0.26171875f,  -0.90234375f, -0.75390625f, 0.21875f,    0.38671875f,  0.68359375f,
           -0.97265625f, -0.16015625f, 0.1640625f,   0.60546875f, 0.41015625f,  -0.36328125f,
           0.0859375f,   0.2421875f,   0.43359375f,  -1.1601562f, 0.08203125f,  -0.69140625f,
           -0.9609375f,  0.19140625f,  -0.203125f,   0.1796875f,  -0.375f,      0.0234375f,
           -0.890625f,   -1.0117188f,  -0.42578125f, -1.515625f,  -0.19140625f, 0.609375f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .Input<float>("a", {3, 4},
                    {1.875f, 0.25f, -0.875f, -1.5f, 0.25f, -1.25f, 1.0f, 1.75f, -1.0f, 0.25f,
                     -1.875f, -1.375f})
      .Input<float>("b", {3, 4, 2},
                    {0.875f,  0.625f,  -1.875f, 1.0f,  -0.125f, -1.625f, -1.0f,   0.125f,
                     0.875f,  0.0f,    0.5f,    1.5f,  0.75f,   -0.625f, 0.625f,  0.375f,
                     -1.625f, -1.875f, 0.625f,  -0.5f, 0.375f,  -0.75f,  -1.125f, -1.5f})
      .Output<float>("y", {3, 3, 2},
                     {2.78125f, 2.65625f, 0.6875f, -2.5f, 0.265625f, 2.5f, 0.171875f, 0.359375f,
                      1.4375f, -1.84375f, -3.015625f, 1.03125f, -1.53125f, -0.734375f, -2.78125f,
                      -3.21875f, 2.625f, 5.21875f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transA", 1)
      .Input<float>(
          "a", {2, 2, 4, 3},
          {-0.5f,   1.625f,  1.875f,  0.625f,  0.375f,  0.25f,  -1.75f,  -0.5f,   2.0f,   -0.375f,
           -1.125f, -1.125f, 0.875f,  -1.875f, 1.875f,  1.5f,   0.25f,   -0.125f, 1.125f, 0.25f,
           -0.125f, -0.75f,  -0.25f,  1.0f,    -1.875f, -2.0f,  0.875f,  -0.5f,   1.25f,  -1.875f,
           1.625f,  -1.5f,   -0.375f, 1.875f,  -1.625f, 0.625f, 1.0f,    -0.25f,  -1.75f, 0.125f,
           -0.25f,  1.5f,    0.75f,   -0.625f, -1.875f, 0.375f, -0.875f, 0.75f})
      .Input<float>("b", {2, 1, 4, 2},
                    {1.5f, -0.625f, 1.625f, 0.125f, 0.125f, 1.125f, 1.25f, 1.75f, 2.0f, -1.5f,
                     -0.375f, 1.75f, -0.75f, -2.0f, 0.375f, 1.0f})
      .Output<float>("y", {2, 2, 3, 2},
                     {-0.421875f, -2.234375f, 1.578125f,  -3.5f,     2.0625f,  -0.859375f,
                      2.953125f,  -0.40625f,  -2.6875f,   1.046875f, 3.84375f, 0.421875f,
                      -4.078125f, 0.5625f,    -3.953125f, 6.5625f,   2.96875f, -3.21875f,
                      1.53125f,   -2.40625f,  -0.265625f, 0.3125f,   -2.375f,  9.75f})
      .Run();
}

TEST_CASE("FusedMatMul reads vectors as rows and columns", "[contrib][FusedMatMul]") {
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transA", 1)
      .Input<float>("a", {4}, {1.0f, 1.25f, 0.625f, -1.5f})
      .Input<float>("b", {2, 4, 3},
                    {1.375f, -0.375f, 1.375f, 1.25f,   2.0f,    -2.0f,   1.5f,    0.5f,
                     0.0f,   1.25f,   1.875f, 0.0f,    -1.75f,  0.875f,  -1.125f, -1.125f,
                     -1.25f, -1.25f,  1.75f,  -0.625f, -1.625f, -1.375f, -0.375f, -0.625f})
      .Output<float>("y", {2, 3}, {2.0f, -0.375f, -1.125f, 0.0f, -0.515625f, -2.765625f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transB", 1)
      .Input<float>("a", {2, 3, 4},
                    {-0.75f, 1.875f, 1.5f,    0.25f,  2.0f,   -0.625f, -1.5f,   -1.0f,
                     -1.75f, 1.875f, -1.125f, -0.25f, -1.25f, 2.0f,    -1.375f, 0.125f,
                     1.875f, 0.125f, 1.625f,  1.625f, 1.125f, 1.0f,    0.375f,  0.375f})
      .Input<float>("b", {4}, {1.375f, -0.25f, 1.875f, 1.5f})
      .Output<float>("y", {2, 3}, {1.6875f, -1.40625f, -5.359375f, -4.609375f, 8.03125f, 2.5625f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrFloat("alpha", 3.0f)
      .Input<float>("a", {4}, {-0.5f, -0.375f, 0.875f, 1.75f})
      .Input<float>("b", {4}, {-1.625f, -1.75f, -1.0f, -0.25f})
      .Output<float>("y", {}, {0.46875f})
      .Run();
}

TEST_CASE("FusedMatMul moves the leading axis behind the batch with transBatchA/B",
          "[contrib][FusedMatMul]") {
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transBatchA", 1)
      .Input<float>("a", {3, 2, 4},
                    {-1.375f, 0.125f, 0.125f, 1.875f,  1.0f,  -1.0f,  1.125f,  1.25f,
                     0.75f,   0.75f,  -0.75f, 0.875f,  -1.5f, 0.5f,   1.75f,   2.0f,
                     -0.875f, -0.75f, 0.5f,   -0.375f, 1.0f,  -1.25f, -1.375f, -1.875f})
      .Input<float>(
          "b", {2, 4, 5},
          {-0.125f, -1.125f, -0.875f, 1.75f,  1.25f,   1.375f, 0.375f, -1.625f, 1.0f,   0.375f,
           1.625f,  -0.125f, -1.375f, 0.375f, -0.125f, 0.625f, -0.5f,  -0.75f,  -1.5f,  1.875f,
           1.0f,    -0.125f, -1.125f, 0.5f,   -0.375f, 0.5f,   -1.75f, -1.25f,  1.0f,   -1.75f,
           0.75f,   -0.375f, -2.0f,   1.125f, 0.875f,  1.25f,  1.625f, 1.0f,    1.375f, -1.625f})
      .Output<float>(
          "y", {2, 3, 5},
          {1.71875f,  0.640625f, -0.578125f, -5.046875f, 1.828125f, 0.265625f, -0.90625f,  -1.5f,
           0.46875f,  2.953125f, -0.34375f,  0.828125f,  1.578125f, -1.53125f, -2.140625f, 2.90625f,
           3.234375f, -0.875f,   2.484375f,  0.328125f,  2.5625f,   1.90625f,  -0.4375f,   4.46875f,
           -2.03125f, -3.0f,     -0.46875f,  1.3125f,    -4.875f,   3.65625f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transBatchB", 1)
      .Input<float>("a", {2, 3, 4},
                    {1.75f, 1.75f, 0.75f,   1.25f,   1.0f,    1.5f,   1.625f, 0.125f,
                     1.25f, 1.75f, -0.875f, -1.875f, -1.375f, -2.0f,  -0.25f, -2.0f,
                     -1.0f, -1.0f, 0.875f,  -1.0f,   1.875f,  -1.25f, 2.0f,   0.25f})
      .Input<float>(
          "b", {4, 2, 5},
          {-1.0f,   -1.875f, -0.75f,  0.375f, -1.625f, -1.375f, -1.625f, 0.75f,   -1.75f,  -2.0f,
           -0.125f, -0.75f,  0.25f,   1.75f,  1.5f,    0.125f,  0.625f,  1.25f,   -0.25f,  0.625f,
           -1.125f, 0.5f,    -1.125f, -1.25f, 1.125f,  0.25f,   -0.5f,   -1.875f, -1.125f, 1.25f,
           -0.125f, 1.875f,  1.625f,  1.5f,   -2.0f,   -1.875f, 0.375f,  -0.625f, 1.375f,  -0.75f})
      .Output<float>("y", {2, 3, 5},
                     {-2.96875f,  -1.875f,    0.3125f,    4.65625f,  -1.875f,    -3.03125f,
                      -1.953125f, -2.0f,      1.15625f,   2.203125f, -0.25f,     -7.609375f,
                      -2.5625f,   1.8125f,    3.359375f,  5.328125f, 0.359375f,  -1.8125f,
                      0.4375f,    2.6875f,    3.34375f,   0.1875f,   -3.015625f, -0.359375f,
                      3.21875f,   -2.703125f, -4.734375f, -4.0625f,  -4.875f,    -2.21875f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transBatchA", 1)
      .AttrInt("transBatchB", 1)
      .AttrInt("transA", 1)
      .AttrInt("transB", 1)
      .Input<float>("a", {4, 2, 3},
                    {-1.375f, -1.625f, -0.875f, 0.5f,   -1.5f,  1.25f, -0.875f, -0.75f,
                     0.625f,  1.5f,    -0.25f,  1.25f,  -0.75f, -1.5f, 1.375f,  1.125f,
                     1.0f,    1.625f,  0.0f,    -1.25f, 0.375f, 0.25f, -0.5f,   0.625f})
      .Input<float>(
          "b", {5, 2, 4},
          {-1.0f, 0.5f,    1.25f,   -1.625f, -0.25f,  0.625f, -1.875f, 0.5f,    1.75f,   1.375f,
           0.75f, 1.25f,   -0.625f, -0.75f,  -1.75f,  0.875f, -0.75f,  1.5f,    -0.125f, 1.625f,
           -1.5f, -1.375f, -0.625f, -2.0f,   0.0f,    0.625f, 0.625f,  -1.125f, -1.375f, 0.25f,
           0.5f,  1.875f,  1.625f,  -0.5f,   -1.375f, -1.0f,  1.625f,  -0.125f, 2.0f,    0.625f})
      .Output<float>("y", {2, 3, 5},
                     {0.0f,      -4.171875f, -0.1875f,   -1.015625f, -0.765625f, 1.40625f,
                      -6.5625f,  -1.75f,     0.0f,       1.046875f,  2.296875f,  0.828125f,
                      2.03125f,  0.828125f,  -4.0f,      -1.171875f, -3.1875f,   -4.015625f,
                      0.71875f,  3.03125f,   -1.90625f,  -1.0625f,   2.96875f,   1.5625f,
                      -0.71875f, -2.265625f, -4.015625f, -5.859375f, 0.578125f,  5.515625f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transBatchA", 1)
      .AttrFloat("alpha", 0.5f)
      .Input<float>(
          "a", {3, 2, 2, 4},
          {0.375f, -1.625f, 0.375f,  -0.5f,   1.375f, -1.5f,  -1.25f,  0.625f,  0.75f,  1.375f,
           0.125f, -0.5f,   -0.75f,  -0.5f,   0.625f, 0.125f, -0.875f, -1.125f, 0.875f, -1.0f,
           -1.25f, -0.75f,  1.5f,    -0.125f, 0.375f, -1.75f, -0.625f, 1.0f,    1.125f, 0.375f,
           1.5f,   -0.875f, -1.375f, -1.75f,  -1.25f, 1.125f, 1.625f,  -1.5f,   0.0f,   -1.5f,
           1.375f, -1.5f,   0.625f,  -1.75f,  1.0f,   1.625f, 1.0f,    -1.0f})
      .Input<float>("b", {2, 2, 4, 2},
                    {1.375f, -0.75f,  1.0f,    1.375f, 0.0f,   0.5f,   1.5f,    -1.25f,
                     -2.0f,  -0.25f,  -1.375f, 1.625f, 1.5f,   -0.5f,  -0.75f,  0.875f,
                     -0.25f, -1.625f, 0.625f,  1.0f,   -1.75f, 1.125f, 0.125f,  1.375f,
                     1.5f,   0.75f,   -0.625f, -0.5f,  0.875f, -1.75f, -1.125f, 0.125f})
      .Output<float>("y", {2, 2, 3, 2},
                     {-0.9296875f, -0.8515625f, -1.9140625f, 0.3984375f,  -0.9765625f, -1.703125f,
                      -1.515625f,  -0.8046875f, 2.9375f,     -0.8828125f, -0.03125f,   -2.078125f,
                      0.1953125f,  -0.1953125f, 0.015625f,   -0.84375f,   -1.296875f,  -2.71875f,
                      -0.203125f,  -0.6953125f, 1.875f,      -1.0390625f, 1.2421875f,  -0.96875f})
      .Run();
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transBatchA", 1)
      .Input<float>("a", {3, 2, 4},
                    {1.875f,  1.0f,  1.25f,  -1.25f, -0.875f, -1.0f,  1.0f,    0.125f,
                     -1.25f,  1.0f,  0.625f, 1.625f, 0.25f,   -1.5f,  1.625f,  -1.25f,
                     -1.875f, 1.25f, -0.25f, 0.625f, -1.5f,   0.875f, -0.375f, 2.0f})
      .Input<float>("b", {4, 5}, {0.5f,    1.75f,  1.25f,  1.375f, -1.75f, 1.125f, 0.375f,
                                  -0.375f, -0.75f, 0.625f, -1.25f, -1.25f, 1.5f,   1.125f,
                                  0.375f,  1.125f, -0.75f, 0.875f, -1.25f, -0.25f})
      .Output<float>("y", {2, 3, 5},
                     {-0.90625f,  3.03125f,   2.75f,      4.796875f,  -1.875f,    1.546875f,
                      -3.8125f,   0.421875f,  -3.796875f, 2.640625f,  1.484375f,  -2.96875f,
                      -2.640625f, -4.578125f, 3.8125f,    -2.671875f, -3.25f,     0.890625f,
                      0.515625f,  1.25f,      -5.0f,      -1.21875f,  2.21875f,   4.859375f,
                      -0.453125f, 2.953125f,  -3.328125f, -1.015625f, -5.640625f, 2.53125f})
      .Run();
}

TEST_CASE("FusedMatMul with an empty inner dimension gives zeros", "[contrib][FusedMatMul]") {
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transA", 1)
      .Input<float>("a", {0, 2}, {})
      .Input<float>("b", {0, 3}, {})
      .Output<float>("y", {2, 3}, {0, 0, 0, 0, 0, 0})
      .Run();
}

TEST_CASE("FusedGemm applies its activation to Gemm", "[contrib][FusedGemm]") {
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "Relu")
      .Input<float>("a", {3, 4},
                    {-1.5f, -0.5f, -0.625f, -0.375f, -0.125f, -1.875f, -0.625f, 1.375f, -0.25f,
                     0.125f, -1.625f, -0.5f})
      .Input<float>("b", {4, 5},
                    {2.0f,    0.25f, -2.0f, 0.875f, 1.125f, -0.5f,  -1.875f, 1.375f, -1.0f, 1.75f,
                     -0.625f, -0.5f, 1.25f, -1.5f,  -2.0f,  1.125f, 1.75f,   2.0f,   -1.5f, -1.5f})
      .Input<float>("c", {5}, {-0.625f, 0.875f, 1.75f, 1.375f, -0.5f})
      .Output<float>("y", {3, 5},
                     {0.0f, 1.09375f, 2.53125f, 2.0625f, 0.0f, 2.0f, 7.078125f, 1.390625f,
                      2.015625f, 0.0f, 0.0f, 0.515625f, 0.0f, 4.21875f, 3.4375f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "LeakyRelu")
      .AttrFloat("activation_alpha", 0.125f)
      .AttrInt("transA", 1)
      .Input<float>("a", {4, 3},
                    {1.75f, -1.0f, -1.5f, -0.25f, -1.625f, 0.75f, 2.0f, -1.625f, -1.625f, -1.375f,
                     -1.375f, 0.125f})
      .Input<float>("b", {4, 5}, {0.25f,  1.875f, -0.25f,  1.75f,   1.0f,    1.5f,   -1.25f,
                                  -0.25f, 1.75f,  1.0f,    -1.125f, 1.375f,  1.125f, -1.5f,
                                  -1.75f, -1.0f,  -0.125f, -1.375f, -1.875f, -1.625f})
      .Input<float>("c", {3, 5},
                    {-0.75f, -0.5f, -0.75f, -0.25f, 0.875f, -1.0f, -0.125f, 1.0f, -1.875f, 1.875f,
                     2.0f, -0.875f, 1.625f, -1.0f, 1.75f})
      .Output<float>("y", {3, 5},
                     {-0.1953125f, 6.015625f, 3.015625f, 1.953125f, 1.109375f, -0.060546875f,
                      -0.25390625f, 1.71875f, -0.18164062f, 4.328125f, 4.453125f, -0.859375f,
                      -0.0234375f, -0.013671875f, 3.640625f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "Sigmoid")
      .AttrInt("transB", 1)
      .AttrFloat("alpha", 0.25f)
      .Input<float>(
          "a", {3, 4},
          {0.625f, -1.0f, -1.75f, -0.375f, 1.0f, -1.125f, 0.0f, -1.5f, -0.25f, -1.875f, 2.0f, 0.0f})
      .Input<float>("b", {5, 4}, {1.375f,  -1.5f,  -1.375f, -1.375f, 0.25f,  1.5f,  0.5f,
                                  -0.125f, 1.875f, -1.25f,  -1.375f, 0.75f,  1.5f,  -1.0f,
                                  -1.0f,   0.125f, 1.125f,  -0.875f, 1.375f, 0.125f})
      .Input<float>("c", {3, 1}, {0.875f, 0.5f, -0.125f})
      .Output<float>("y", {3, 5},
                     {0.89982778f, 0.58225352f, 0.88202196f, 0.85633236f, 0.65841752f, 0.85585117f,
                      0.54673815f, 0.7386691f, 0.75201255f, 0.72720122f, 0.45132652f, 0.35577488f,
                      0.41489884f, 0.4378235f, 0.71143091f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "Tanh")
      .AttrFloat("alpha", 0.25f)
      .AttrFloat("beta", 0.5f)
      .Input<float>("a", {3, 4},
                    {0.125f, 2.0f, -0.375f, 1.875f, 1.25f, -1.25f, 1.5f, -0.5f, -1.375f, -1.0f,
                     -1.5f, -0.625f})
      .Input<float>("b", {4, 5},
                    {-1.625f, 0.125f, 2.0f, 1.875f, 1.875f, -1.0f, -1.125f, 0.75f, 2.0f,    1.375f,
                     -1.25f,  1.0f,   0.0f, -0.25f, 0.0f,   0.25f, 1.75f,   1.25f, -1.875f, 1.125f})
      .Input<float>("c", {5}, {-0.75f, -0.625f, 0.375f, 2.0f, -1.75f})
      .Output<float>("y", {3, 5},
                     {-0.59888464f, -0.1435332f, 0.83696049f, 0.83460534f, 0.37861124f,
                      -0.78957891f, 0.2301757f, 0.39850885f, 0.80105954f, -0.69593549f, 0.6979444f,
                      -0.61855197f, -0.70782548f, 0.23756087f, -0.96668589f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "HardSigmoid")
      .AttrFloat("activation_alpha", 0.25f)
      .AttrFloat("activation_beta", 0.5f)
      .Input<float>("a", {3, 4},
                    {0.0f, -1.125f, 1.75f, -0.125f, 1.5f, 1.625f, -1.625f, 1.125f, 1.25f, 1.375f,
                     2.0f, 1.125f})
      .Input<float>("b", {4, 5}, {1.375f, 0.875f,  -0.875f, 1.5f,   0.875f,  0.75f,  2.0f,
                                  1.0f,   -0.625f, -0.875f, -0.75f, -1.375f, -1.75f, 1.0f,
                                  1.125f, -1.375f, -0.375f, 1.75f,  1.375f,  0.375f})
      .Input<float>("c", {5}, {2.0f, -0.75f, 1.375f, 1.75f, 0.375f})
      .Output<float>("y", {3, 5},
                     {0.50390625f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 0.21484375f,
                      0.92578125f, 0.48046875f, 0.53125f, 1.0f, 1.0f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "ScaledTanh")
      .AttrFloat("activation_alpha", 2.0f)
      .AttrFloat("activation_beta", 0.25f)
      .Input<float>("a", {3, 4},
                    {-1.375f, -0.875f, 0.0f, -0.875f, -1.625f, -1.375f, 1.875f, -0.5f, 0.25f,
                     -0.25f, 1.25f, -1.625f})
      .Input<float>("b", {4, 5}, {-0.875f, 0.375f,  1.25f,   -0.125f, 0.875f,  1.25f,   0.625f,
                                  1.375f,  1.875f,  -1.125f, -0.25f,  -1.125f, -0.375f, -2.0f,
                                  0.75f,   -1.125f, 1.375f,  0.875f,  -0.625f, -0.25f})
      .Input<float>("c", {5}, {0.75f, -0.375f, -1.25f, -1.875f, 0.25f})
      .Output<float>("y", {3, 5},
                     {0.861696f, -1.1569347f, -1.6876874f, -1.2077433f, 0.1248375f, 0.27174646f,
                      -1.6421816f, -1.8366171f, -1.9161431f, 0.88697284f, 0.81664056f, -1.5393511f,
                      -1.3201751f, -1.4928594f, 0.96069747f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "Elu")
      .AttrFloat("activation_alpha", 0.5f)
      .Input<float>("a", {3, 4},
                    {0.125f, 1.125f, -1.5f, -1.75f, 1.0f, 1.0f, 1.25f, -2.0f, 0.625f, 1.875f,
                     1.125f, -0.125f})
      .Input<float>("b", {4, 5}, {-0.125f, -0.375f, -1.875f, 0.875f,  0.125f, 0.125f,  1.75f,
                                  1.0f,    1.875f,  -1.75f,  1.875f,  0.25f,  -0.375f, 0.25f,
                                  -1.875f, 1.75f,   0.5f,    -1.875f, 1.75f,  -0.25f})
      .Input<float>("c", {5}, {-1.625f, 0.5f, -1.75f, 0.25f, 1.125f})
      .Output<float>("y", {3, 5},
                     {-0.49968663f, 1.171875f, 2.984375f, -0.3102214f, 2.421875f, -0.4690195f,
                      1.1875f, 0.65625f, -0.085485443f, -0.45201644f, 0.421875f, 3.765625f,
                      -0.35449171f, 4.375f, -0.49216691f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "Softplus")
      .Input<float>("a", {3, 4},
                    {-1.75f, 1.25f, 0.375f, -0.75f, -1.125f, -2.0f, -1.25f, -0.875f, 1.5f, 0.0f,
                     -1.25f, 1.0f})
      .Input<float>("b", {4, 5}, {-0.25f, 1.375f, 1.0f,    1.75f,   0.875f, -1.625f, 0.25f,
                                  -0.25f, 1.25f,  -1.375f, -0.125f, 1.375f, 0.5f,    -1.875f,
                                  1.375f, -0.5f,  0.75f,   0.625f,  0.625f, -0.375f})
      .Input<float>("c", {5}, {-0.375f, -1.625f, 0.25f, -0.875f, -0.375f})
      .Output<float>("y", {3, 5},
                     {0.17719078f, 0.022889169f, 0.11620328f, 0.028407212f, 0.057441778f,
                      3.7732456f, 0.002362449f, 0.19302432f, 0.028407212f, 0.69314718f, 0.28889987f,
                      0.46239328f, 1.9102242f, 4.7276368f, 0.27358109f})
      .Run();
}

TEST_CASE("FusedGemm supports the remaining ORT activations", "[contrib][FusedGemm]") {
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "Selu")
      .AttrFloat("activation_alpha", 1.5f)
      .AttrFloat("activation_gamma", 1.25f)
      .Input<float>("a", {3, 4},
                    {-1.375f, 1.0f, 1.75f, -0.5f, -0.375f, -0.125f, -1.75f, 1.0f, 1.625f, 0.0f,
                     -1.75f, -0.625f})
      .Input<float>("b", {4, 5}, {-1.375f, 1.375f, 1.25f,  -0.5f, -0.5f,   1.375f, -1.75f,
                                  1.125f,  1.875f, -0.25f, 1.0f,  0.875f,  1.625f, -1.875f,
                                  0.875f,  -0.5f,  1.5f,   1.5f,  -0.875f, 0.375f})
      .Input<float>("c", {5}, {0.0f, 0.25f, 1.375f, 0.625f, 1.0f})
      .Output<float>("y", {3, 5},
                     {6.5820312f, -1.7370366f, 3.59375f, 0.4296875f, 3.4765625f, -1.5963061f,
                      -0.14090848f, -0.82322031f, 3.7304688f, 0.078125f, -1.8273211f, 0.01953125f,
                      -0.58633262f, 4.5507812f, -1.4880719f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "Celu")
      .AttrFloat("activation_alpha", 2.0f)
      .Input<float>("a", {3, 4},
                    {0.75f, -1.0f, 0.375f, -0.5f, -0.375f, -1.625f, -1.25f, -0.625f, -0.875f,
                     0.625f, -0.875f, -1.0f})
      .Input<float>("b", {4, 5}, {-0.25f, 0.25f, 2.0f,  0.0f,    -0.625f, -0.75f, -0.25f,
                                  1.75f,  -0.5f, -1.0f, 0.375f,  1.125f,  1.875f, -0.875f,
                                  1.625f, 1.5f,  -0.5f, -0.625f, -1.0f,   -0.75f})
      .Input<float>("c", {5}, {1.625f, -0.75f, 0.0f, 1.75f, 0.75f})
      .Output<float>("y", {3, 5},
                     {1.578125f, 0.359375f, 0.765625f, 2.421875f, 2.265625f, 1.53125f, -1.0699136f,
                      -1.8751061f, 4.28125f, 1.046875f, -0.40546098f, -1.1055447f, -1.1330642f,
                      3.203125f, 0.0f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "Softsign")
      .Input<float>("a", {3, 4},
                    {-1.5f, -1.75f, -1.125f, 1.5f, -1.125f, -0.75f, 0.125f, 0.0f, -1.75f, -1.25f,
                     2.0f, -0.375f})
      .Input<float>("b", {4, 5}, {-0.875f, 1.375f, -0.125f, 1.375f, -1.375f, -0.125f, 1.25f,
                                  1.125f,  0.75f,  -0.125f, 1.375f, -0.5f,   0.625f,  0.25f,
                                  -0.875f, -1.25f, 0.125f,  -0.75f, 0.125f,  0.875f})
      .Input<float>("c", {5}, {1.25f, 1.125f, 0.0f, -1.875f, -1.375f})
      .Output<float>("y", {3, 5},
                     {-0.3904762f, -0.7037037f, -0.78305084f, -0.84236455f, 0.7620818f, 0.71428573f,
                      -0.58709675f, -0.38461539f, -0.79810727f, 0.13513513f, 0.86026204f,
                      -0.79552716f, 0.25581396f, -0.82655829f, -0.47107437f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "ThresholdedRelu")
      .AttrFloat("activation_alpha", 0.5f)
      .Input<float>(
          "a", {3, 4},
          {1.0f, 0.375f, 1.25f, 0.0f, -0.25f, -1.0f, -1.75f, -1.5f, 0.75f, 0.375f, -1.0f, -0.625f})
      .Input<float>("b", {4, 5}, {0.625f,  -0.5f,   -0.5f,  -1.0f,   0.625f,  1.625f, -1.0f,
                                  -0.875f, -0.125f, -1.25f, 0.125f,  1.625f,  0.5f,   -1.375f,
                                  -1.25f,  -1.75f,  1.875f, -0.625f, -0.875f, 1.5f})
      .Input<float>("c", {5}, {-0.75f, -1.125f, -1.0f, -0.375f, -1.75f})
      .Output<float>("y", {3, 5},
                     {0.640625f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 3.71875f, 0.0f,
                      1.296875f, 0.0f, 0.0f, 0.75f, 0.0f})
      .Run();
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "ParametricSoftplus")
      .AttrFloat("activation_alpha", 0.5f)
      .AttrFloat("activation_beta", 2.0f)
      .Input<float>("a", {3, 4},
                    {0.625f, -0.375f, 2.0f, 1.125f, -0.5f, 0.875f, 1.25f, -1.25f, -1.375f, -1.5f,
                     -1.875f, -0.75f})
      .Input<float>("b", {4, 5}, {1.25f,   1.125f,  -0.5f,   0.0f,  1.125f, 1.75f,   -0.875f,
                                  0.625f,  0.375f,  0.5f,    1.25f, 1.125f, -0.375f, 1.0f,
                                  -1.875f, -0.625f, -1.125f, -1.0f, 1.625f, -0.25f})
      .Input<float>("c", {5}, {-1.75f, 0.0f, -1.75f, -1.5f, -0.5f})
      .Output<float>("y", {3, 5},
                     {0.43986025f, 2.0244231f, 0.00011892517f, 2.1937547f, 0.00016254434f,
                      1.5242937f, 1.5094209f, 0.26798525f, 0.0099580726f, 0.0024587384f,
                      5.9896529e-08f, 0.024293676f, 0.14444993f, 1.6607373e-05f, 0.981857f})
      .Run();
}

TEST_CASE("BiasAdd adds a channel bias and a skip tensor", "[contrib][BiasAdd]") {
  OpTester("BiasAdd", 1, "com.microsoft")
      .Input<float>("x", {2, 3, 4},
                    {-0.25f,  -1.125f, 0.625f,  0.0f,   -1.5f,   1.375f,  -1.5f, -0.625f,
                     -1.375f, 1.875f,  -0.875f, 1.5f,   1.875f,  -1.125f, -2.0f, -2.0f,
                     -1.25f,  -0.375f, -1.375f, 1.875f, -0.125f, 1.375f,  -2.0f, -1.5f})
      .Input<float>("bias", {4}, {-0.125f, -1.375f, -1.375f, -2.0f})
      .Input<float>("skip", {2, 3, 4},
                    {-1.0f,   1.125f, 1.25f,   0.0f,    -1.25f, -0.25f, 0.5f,    -1.5f,
                     -0.375f, 1.375f, -0.375f, -0.125f, 1.25f,  0.75f,  -1.375f, 0.5f,
                     1.75f,   -1.25f, 1.625f,  0.375f,  0.75f,  -0.75f, -1.875f, -2.0f})
      .Output<float>("y", {2, 3, 4},
                     {-1.375f, -1.375f, 0.5f,    -2.0f,   -2.875f, -0.25f, -2.375f, -4.125f,
                      -1.875f, 1.875f,  -2.625f, -0.625f, 3.0f,    -1.75f, -4.75f,  -3.5f,
                      0.375f,  -3.0f,   -1.125f, 0.25f,   0.5f,    -0.75f, -5.25f,  -5.5f})
      .Run();
}

TEST_CASE("FusedMatMul, FusedGemm and BiasAdd reject mismatched shapes", "[contrib][FusedMatMul]") {
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transB", 1)
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {3, 2}, {1, 2, 3, 4, 5, 6})
      .Output<float>("y", {2, 2}, {0, 0, 0, 0})
      .RunExpectingError("inner dimensions differ");
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "Gelu")
      .Input<float>("a", {1, 1}, {1})
      .Input<float>("b", {1, 1}, {1})
      .Output<float>("y", {1, 1}, {0})
      .RunExpectingError("unsupported activation 'Gelu'");
  OpTester("BiasAdd", 1, "com.microsoft")
      .Input<float>("x", {1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("bias", {2}, {1, 2})
      .Input<float>("skip", {1, 1, 2}, {1, 2})
      .Output<float>("y", {1, 2, 2}, {0, 0, 0, 0})
      .RunExpectingError("must have X's shape");
}

TEST_CASE("FusedMatMul and FusedGemm compute doubles", "[contrib][FusedMatMul]") {
  // [[1, 2], [3, 4]]^T [[1, 0], [0, -1]] / 2 = [[0.5, -1.5], [1, -2]].
  OpTester("FusedMatMul", 1, "com.microsoft")
      .AttrInt("transA", 1)
      .AttrFloat("alpha", 0.5f)
      .Input<double>("a", {2, 2}, {1, 2, 3, 4})
      .Input<double>("b", {2, 2}, {1, 0, 0, -1})
      .Output<double>("y", {2, 2}, {0.5, -1.5, 1, -2})
      .Run();
  // relu([[1, 2], [3, 4]] [[1, 0], [0, -1]] + [0.5, 1]) = relu([[1.5, -1], [3.5, -3]]).
  OpTester("FusedGemm", 1, "com.microsoft")
      .AttrString("activation", "Relu")
      .Input<double>("a", {2, 2}, {1, 2, 3, 4})
      .Input<double>("b", {2, 2}, {1, 0, 0, -1})
      .Input<double>("c", {2}, {0.5, 1})
      .Output<double>("y", {2, 2}, {1.5, 0, 3.5, 0})
      .Run();
}

}  // namespace ort::test
