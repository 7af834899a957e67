#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values from a numpy convolution loop over the zero-point-shifted integers.
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<uint8_t> kX1x2x4x4 = {172, 1,   37, 212, 74,  251, 89,  200, 245, 80,  250,
                                        180, 247, 76, 131, 189, 247, 71,  123, 200, 214, 252,
                                        54,  252, 29, 226, 223, 233, 223, 181, 148, 141};
const std::vector<int8_t> kW3x2x2x2 = {-108, 108, 107,  -106, 24,  -34, 62, 27,
                                       22,   -6,  -100, 74,   99,  -79, -9, -113,
                                       -17,  -96, -23,  118,  -92, -95, 52, -71};

}  // namespace

TEST_CASE("ConvInteger subtracts zero points, padding with the input zero point",
          "[nn][ConvInteger]") {
  OpTester("ConvInteger", 10)
      .AttrInts("pads", {1, 0, 1, 0})
      .Input<uint8_t>("x", {1, 2, 4, 4}, kX1x2x4x4)
      .Input<int8_t>("w", {3, 2, 2, 2}, kW3x2x2x2)
      .Input<uint8_t>("x_zero_point", {}, {100})
      .Input<int8_t>("w_zero_point", {3}, {1, -2, 3})
      .Output<int32_t>("y", {1, 3, 5, 3},
                       {26438,  -4924,  -14659, -22052, 27837,  5160,   32748,  -19816, 23822,
                        3771,   17151,  -11859, -18597, 6116,   5813,   -12390, 2564,   3425,
                        15558,  -18416, -15209, -30637, 21387,  -41258, -39395, 988,    4301,
                        9810,   3785,   2079,   -3908,  -7794,  8245,   9617,   14379,  -23529,
                        -59028, 2979,   -18721, -13072, -33868, -26892, -20187, -14988, -18009})
      .Run();
  OpTester("ConvInteger", 10)
      .AttrInt("group", 2)
      .Input<uint8_t>("x", {1, 2, 4, 4}, kX1x2x4x4)
      .Input<int8_t>("w", {2, 1, 2, 2}, {-108, 108, 107, -106, 22, -6, -100, 74})
      .Output<int32_t>("y", {1, 2, 3, 3},
                       {-37156, 21311, 7223, 36851, -35436, 19658, 553, 12606, -13577, 2256, -20380,
                        14754, 17020, -878, -5382, -9624, -3514, -858})
      .Run();
}

TEST_CASE("QLinearConv requantizes with per-channel weight scales and bias", "[nn][QLinearConv]") {
  OpTester("QLinearConv", 10)
      .AttrInts("pads", {1, 0, 1, 0})
      .Input<uint8_t>("x", {1, 2, 4, 4}, kX1x2x4x4)
      .Input<float>("x_scale", {}, {0.050000001f})
      .Input<uint8_t>("x_zero_point", {}, {100})
      .Input<int8_t>("w", {3, 2, 2, 2}, kW3x2x2x2)
      .Input<float>("w_scale", {3}, {0.0099999998f, 0.02f, 0.0049999999f})
      .Input<int8_t>("w_zero_point", {3}, {1, -2, 3})
      .Input<float>("y_scale", {}, {0.5f})
      .Input<uint8_t>("y_zero_point", {}, {7})
      .Input<int32_t>("b", {3}, {100, -200, 50})
      .Output<uint8_t>(
          "y", {1, 3, 5, 3},
          {34, 2, 0, 0,  35, 12, 40, 0, 31, 11, 24, 0,  0, 13, 13, 0, 12, 13, 38, 0, 0, 0, 49,
           0,  0, 9, 15, 26, 14, 11, 5, 3,  11, 12, 14, 0, 0,  9,  0, 0,  0,  0,  0, 0, 0})
      .Run();
}

}  // namespace ort::test
