#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from a numpy loop over output positions and window taps.
namespace ort::test {

namespace {

// Inputs several cases share, named by their shape.
const std::vector<float> kX1x2x5x6 = {
    -3.0f,  -0.0f,  0.75f,  -3.75f, -2.75f, 3.5f,   -3.5f,  -3.0f,  3.5f,   1.0f,   -1.0f,  0.0f,
    1.25f,  -1.75f, -3.0f,  2.25f,  1.25f,  0.0f,   2.5f,   0.5f,   3.75f,  -2.25f, 0.5f,   -0.25f,
    -1.25f, 0.75f,  -2.0f,  2.5f,   3.0f,   -3.0f,  -0.25f, -1.75f, -3.25f, 3.25f,  -0.5f,  -2.75f,
    1.5f,   -2.5f,  3.25f,  -2.25f, -3.75f, -2.5f,  -1.25f, -0.25f, 3.25f,  1.5f,   -1.25f, -3.75f,
    -2.75f, 4.0f,   -0.25f, 1.5f,   -3.5f,  -3.75f, 2.75f,  0.75f,  -1.5f,  -1.5f,  -3.25f, -2.5f};
const std::vector<float> kX1x2x4x5 = {-3.0f,  -3.25f, 0.5f,   3.75f,  3.25f, 1.5f,   -3.5f,  2.5f,
                                      1.5f,   -2.75f, -0.25f, -3.5f,  2.5f,  1.75f,  2.5f,   2.0f,
                                      -1.75f, 2.25f,  -2.0f,  -3.0f,  -1.0f, -0.0f,  -1.75f, 0.75f,
                                      0.75f,  -2.0f,  1.0f,   -1.25f, 2.0f,  -1.75f, 2.5f,   -0.75f,
                                      0.5f,   1.5f,   0.25f,  -2.0f,  3.75f, -3.25f, -1.5f,  0.5f};

}  // namespace

TEST_CASE("MaxPool 2-D with pads and strides, with Indices", "[nn][MaxPool]") {
  OpTester("MaxPool", 12)
      .AttrInts("kernel_shape", {3, 2})
      .AttrInts("strides", {2, 2})
      .AttrInts("pads", {1, 0, 1, 1})
      .Input<float>("x", {1, 2, 5, 6}, kX1x2x5x6)
      .Output<float>("y", {1, 2, 3, 3},
                     {-0.0f, 3.5f, 3.5f, 2.5f, 3.75f, 1.25f, 2.5f, 3.75f, 3.0f, 1.5f, 3.25f, -0.5f,
                      4.0f, 3.25f, -1.25f, 4.0f, 1.5f, -2.5f})
      .Output<int64_t>("indices", {1, 2, 3, 3},
                       {1, 8, 5, 18, 20, 16, 18, 20, 28, 36, 33, 34, 49, 38, 46, 49, 51, 59})
      .Run();
}

TEST_CASE("MaxPool with dilations, column-major indices and ceil_mode", "[nn][MaxPool]") {
  OpTester("MaxPool", 12)
      .AttrInts("kernel_shape", {2, 2})
      .AttrInts("dilations", {2, 2})
      .AttrInt("storage_order", 1)
      .Input<float>("x", {1, 2, 5, 6}, kX1x2x5x6)
      .Output<float>("y", {1, 2, 3, 4}, {1.25f, 2.25f, 1.25f, 3.5f, 3.75f, 1.0f,  3.75f, 1.0f,
                                         1.25f, 2.5f,  3.0f,  2.5f, 3.25f, 3.25f, 3.25f, 3.25f,
                                         3.25f, 4.0f,  3.25f, 1.5f, 3.25f, 1.5f,  3.25f, 1.5f})
      .Output<int64_t>("indices", {1, 2, 3, 4}, {2,  17, 22, 25, 13, 16, 13, 16, 2,  19, 24, 19,
                                                 42, 45, 42, 45, 41, 38, 41, 48, 42, 47, 42, 47})
      .Run();
  OpTester("MaxPool", 12)
      .AttrInts("kernel_shape", {3, 3})
      .AttrInts("strides", {2, 2})
      .AttrInt("ceil_mode", 1)
      .Input<float>("x", {1, 2, 5, 6}, kX1x2x5x6)
      .Output<float>(
          "y", {1, 2, 2, 3},
          {3.5f, 3.5f, 3.5f, 3.75f, 3.75f, 3.0f, 3.25f, 3.25f, -0.5f, 4.0f, 3.25f, -1.25f})
      .Run();
}

TEST_CASE("MaxPool 1-D and 3-D", "[nn][MaxPool]") {
  OpTester("MaxPool", 8)
      .AttrInts("kernel_shape", {3})
      .AttrInts("strides", {2})
      .Input<float>("x", {2, 1, 7},
                    {-3.75f, 2.75f, -0.25f, -3.0f, 2.0f, -2.5f, -3.5f, 0.75f, 3.25f, -3.75f, 2.5f,
                     -2.5f, -3.25f, -3.75f})
      .Output<float>("y", {2, 1, 3}, {2.75f, 2.0f, 2.0f, 3.25f, 2.5f, -2.5f})
      .Run();
  OpTester("MaxPool", 12)
      .AttrInts("kernel_shape", {2, 2, 2})
      .AttrInts("pads", {1, 0, 1, 0, 1, 0})
      .Input<float>("x", {1, 1, 3, 4, 3},
                    {-1.75f, 1.75f, -0.0f, 2.75f, -2.25f, -1.5f, -2.0f,  3.75f, 3.5f,
                     -1.25f, -0.5f, -1.5f, 2.0f,  -3.75f, -3.5f, -0.75f, -2.0f, 2.75f,
                     2.0f,   0.25f, 1.25f, 1.5f,  2.25f,  3.5f,  -2.75f, 1.0f,  -2.75f,
                     -0.5f,  2.25f, 3.25f, 2.0f,  -3.75f, -1.0f, -2.75f, 4.0f,  -2.75f})
      .Output<float>(
          "y", {1, 1, 3, 4, 3},
          {2.75f, 2.75f, 1.75f, 2.75f, 3.75f, 3.75f, -1.25f, 3.75f, 3.75f, -1.25f, -0.5f, -0.5f,
           2.75f, 2.75f, 2.75f, 2.75f, 3.75f, 3.75f, 2.0f,   3.75f, 3.75f, 1.5f,   2.25f, 3.5f,
           2.0f,  2.25f, 3.25f, 2.0f,  2.25f, 3.25f, 2.0f,   4.0f,  4.0f,  1.5f,   4.0f,  4.0f})
      .Run();
}

TEST_CASE("MaxPool on uint8, int8 and double", "[nn][MaxPool]") {
  OpTester("MaxPool", 12)
      .AttrInts("kernel_shape", {2, 2})
      .AttrString("auto_pad", "SAME_UPPER")
      .Input<uint8_t>("x", {1, 1, 3, 4}, {246, 62, 223, 91, 192, 15, 161, 221, 86, 162, 54, 40})
      .Output<uint8_t>("y", {1, 1, 3, 4},
                       {246, 223, 223, 221, 192, 162, 221, 221, 162, 162, 54, 40})
      .Run();
  OpTester("MaxPool", 12)
      .AttrInts("kernel_shape", {2, 2})
      .AttrInts("strides", {2, 2})
      .Input<int8_t>("x", {1, 1, 3, 4}, {-128, -1, 4, -108, -70, 27, -36, -69, -127, -119, 34, -99})
      .Output<int8_t>("y", {1, 1, 1, 2}, {27, 4})
      .Run();
  OpTester("MaxPool", 12)
      .AttrInts("kernel_shape", {2, 2})
      .AttrString("auto_pad", "SAME_LOWER")
      .Input<double>("x", {1, 1, 3, 3}, {0.5, 1.0, -1.5, 1.25, -1.25, -3.0, -1.5, -0.75, 3.25})
      .Output<double>("y", {1, 1, 3, 3}, {0.5, 1.0, 1.0, 1.25, 1.25, 1.0, 1.25, 1.25, 3.25})
      .Run();
}

TEST_CASE("AveragePool excludes or includes padding", "[nn][AveragePool]") {
  OpTester("AveragePool", 11)
      .AttrInts("kernel_shape", {3, 3})
      .AttrInts("pads", {1, 1, 1, 1})
      .AttrInts("strides", {2, 2})
      .Input<float>("x", {1, 2, 4, 5}, kX1x2x4x5)
      .Output<float>("y", {1, 2, 2, 3},
                     {-2.0625f, 0.25f, 1.4375f, -0.91666669f, -0.027777778f, -0.33333334f, -0.5f,
                      0.125f, 0.4375f, 0.41666666f, 0.22222222f, 0.16666667f})
      .Run();
  OpTester("AveragePool", 11)
      .AttrInts("kernel_shape", {3, 3})
      .AttrInts("pads", {1, 1, 1, 1})
      .AttrInts("strides", {2, 2})
      .AttrInt("count_include_pad", 1)
      .Input<float>("x", {1, 2, 4, 5}, kX1x2x4x5)
      .Output<float>(
          "y", {1, 2, 2, 3},
          {-0.91666669f, 0.16666667f, 0.6388889f, -0.6111111f, -0.027777778f, -0.22222222f,
           -0.22222222f, 0.083333336f, 0.19444445f, 0.27777779f, 0.22222222f, 0.11111111f})
      .Run();
}

TEST_CASE("AveragePool with ceil_mode and opset 19 dilations", "[nn][AveragePool]") {
  OpTester("AveragePool", 11)
      .AttrInts("kernel_shape", {2, 2})
      .AttrInts("strides", {2, 2})
      .AttrInt("ceil_mode", 1)
      .Input<float>("x", {1, 2, 4, 5}, kX1x2x4x5)
      .Output<float>("y", {1, 2, 2, 3},
                     {-2.0625f, 2.0625f, 0.25f, -0.875f, 1.125f, -0.25f, -0.5f, -0.0625f, -0.5f,
                      0.875f, -0.6875f, 0.375f})
      .Run();
  OpTester("AveragePool", 19)
      .AttrInts("kernel_shape", {2, 2})
      .AttrInts("dilations", {2, 2})
      .AttrInts("pads", {0, 1, 0, 1})
      .AttrInt("count_include_pad", 1)
      .Input<float>("x", {1, 2, 4, 5}, kX1x2x4x5)
      .Output<float>("y", {1, 2, 2, 5},
                     {-1.6875f, -0.0625f, -0.3125f, 2.1875f,  1.375f,   -1.3125f, 2.0625f,
                      -1.4375f, -0.25f,   -0.125f,  -0.1875f, 0.0625f,  0.375f,   -0.0625f,
                      0.5625f,  1.1875f,  -2.125f,  1.3125f,  -1.4375f, 0.125f})
      .Run();
}

TEST_CASE("LpPool with p = 1, 2 and 3", "[nn][LpPool]") {
  OpTester("LpPool", 11)
      .AttrInts("kernel_shape", {2, 2})
      .AttrInt("p", 1)
      .Input<float>("x", {1, 2, 4, 5}, kX1x2x4x5)
      .Output<float>("y", {1, 2, 3, 4}, {11.25f, 9.75f, 8.25f, 11.25f, 8.75f, 12.0f, 8.25f, 8.5f,
                                         7.5f,   10.0f, 8.5f,  9.25f,  4.0f,  4.0f,  5.75f, 5.25f,
                                         6.25f,  3.5f,  5.25f, 5.5f,   9.0f,  8.25f, 6.75f, 3.75f})
      .Run();
  OpTester("LpPool", 11)
      .AttrInts("kernel_shape", {2, 3})
      .AttrInts("strides", {2, 1})
      .AttrInts("pads", {1, 0, 1, 0})
      .Input<float>("x", {1, 2, 4, 5}, kX1x2x4x5)
      .Output<float>("y", {1, 2, 3, 3},
                     {4.4511232f, 4.9874845f, 4.9874845f, 6.269968f, 6.504806f, 5.623611f,
                      3.4820971f, 3.4820971f, 4.25f, 2.0155644f, 1.9039433f, 2.0463381f, 3.6912057f,
                      3.1024184f, 3.3447721f, 5.3502336f, 5.1841102f, 3.614208f})
      .Run();
  OpTester("LpPool", 18)
      .AttrInts("kernel_shape", {2, 2})
      .AttrInt("p", 3)
      .AttrInts("strides", {2, 2})
      .AttrInt("ceil_mode", 1)
      .Input<float>("x", {1, 2, 4, 5}, kX1x2x4x5)
      .Output<float>("y", {1, 2, 2, 3},
                     {4.7559943f, 4.1574574f, 3.8058312f, 3.8315473f, 3.4306061f, 3.4931841f,
                      2.1544347f, 2.5058198f, 1.7947636f, 4.2502885f, 3.4539022f, 0.52002096f})
      .Run();
}

TEST_CASE("Pools reject bad inputs and split planes across threads", "[nn][MaxPool]") {
  OpTester("MaxPool", 12)
      .AttrInts("kernel_shape", {2, 2})
      .Input<float>("x", {1, 4}, {1, 2, 3, 4})
      .Output<float>("y", {1}, {0})
      .RunExpectingError("spatial dims");
  OpTester("MaxPool", 12)
      .AttrInts("kernel_shape", {3, 3})
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Output<float>("y", {1, 1, 1, 1}, {0})
      .RunExpectingError("exceeds the padded input");
  OpTester("AveragePool", 11)
      .AttrInts("kernel_shape", {1, 1})
      .Input<float>("x", {0, 2, 3, 3}, {})
      .Output<float>("y", {0, 2, 3, 3}, {})
      .Run();
  // Each 2x2 window of a ramp holds its top-left value plus 0, 1, 8 and 9.
  const int64_t planes = 64, size = 8;
  std::vector<float> x(planes * size * size), expected;
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t h = 0; h < size; h += 2) {
      for (int64_t w = 0; w < size; w += 2) {
        expected.push_back(static_cast<float>(p * size * size + h * size + w) + 4.5f);
      }
    }
  }
  OpTester("AveragePool", 11)
      .AttrInts("kernel_shape", {2, 2})
      .AttrInts("strides", {2, 2})
      .Input<float>("x", {2, planes / 2, size, size}, x)
      .Output<float>("y", {2, planes / 2, size / 2, size / 2}, expected)
      .Threads(2)
      .Run();
}

}  // namespace ort::test
