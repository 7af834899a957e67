#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from the numpy formulas of each op (population variance).
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX2x3x2x2 = {-1.625f, -1.0f,   1.25f, 0.375f, -1.625f, -0.25f,
                                      -0.125f, -1.375f, 1.0f,  -1.5f,  -0.375f, 0.125f,
                                      -0.25f,  0.375f,  1.0f,  1.875f, -0.875f, 0.625f,
                                      0.75f,   -0.875f, -2.0f, 1.875f, -0.75f,  -0.75f};
const std::vector<float> kY2x3x2x2 = {
    -1.6618402f, -0.73289347f, 2.6113148f, 1.3107893f, -2.4059081f, -1.7745579f,
    -1.7171625f, -2.2911172f,  0.7388522f, 1.0013058f, 0.88320166f, 0.83071095f,
    0.38184261f, 1.3107893f,   2.2397361f, 3.5402615f, -2.0615354f, -1.3727896f,
    -1.3153942f, -2.0615354f,  1.0537965f, 0.6469934f, 0.92256969f, 0.92256969f};

// BatchNormalization-`opset` over x of three channels, with fixed per-channel
// scale, bias, mean and variance.
OpTester BatchNormOnThreeChannels(int opset, std::vector<int64_t> x_dims,
                                  const std::vector<float>& x) {
  OpTester tester("BatchNormalization", opset);
  tester.Input<float>("x", std::move(x_dims), x)
      .Input<float>("scale", {3}, {1.625f, 0.375f, -0.125f})
      .Input<float>("b", {3}, {1.125f, -1.875f, 0.875f})
      .Input<float>("mean", {3}, {-0.5f, -1.625f, 0.625f})
      .Input<float>("var", {3}, {2.25f, 1.625f, 1.0f});
  return tester;
}

}  // namespace

TEST_CASE("BatchNormalization in inference mode", "[nn][BatchNormalization]") {
  BatchNormOnThreeChannels(15, {2, 3, 2, 2}, kX2x3x2x2)
      .AttrFloat("epsilon", 0.001f)
      .Output<float>(
          "y", {2, 3, 2, 2},
          {-0.093479276f, 0.58345366f, 3.0204122f,  2.0727062f,  -1.875f,     -1.4706349f,
           -1.4338744f,   -1.8014791f, 0.82814842f, 1.1404923f,  0.99993753f, 0.93746877f,
           1.3957732f,    2.0727062f,  2.749639f,   3.697345f,   -1.6544372f, -1.2133117f,
           -1.1765511f,   -1.6544372f, 1.2029611f,  0.71882808f, 1.0467892f,  1.0467892f})
      .Run();
  BatchNormOnThreeChannels(9, {2, 3}, {-1.625f, -1.625f, 1.0f, -0.25f, -0.875f, -2.0f})
      .Output<float>("y", {2, 3},
                     {-0.093747258f, -1.875f, 0.82812524f, 1.3958328f, -1.6543701f, 1.2031233f})
      .Run();
}

TEST_CASE("BatchNormalization training mode updates running statistics",
          "[nn][BatchNormalization]") {
  BatchNormOnThreeChannels(15, {2, 3, 2, 2}, kX2x3x2x2)
      .AttrInt("training_mode", 1)
      .AttrFloat("momentum", 0.80000001f)
      .Output<float>("y", {2, 3, 2, 2}, kY2x3x2x2)
      .Output<float>("running_mean", {3}, {-0.34999999f, -1.3937501f, 0.44062501f})
      .Output<float>("running_var", {3}, {2.0390625f, 1.4333985f, 1.083545f})
      .Run();
  BatchNormOnThreeChannels(7, {2, 3, 2, 2}, kX2x3x2x2)
      .AttrFloat("momentum", 0.80000001f)
      .Output<float>("y", {2, 3, 2, 2}, kY2x3x2x2)
      .Output<float>("mean_out", {3}, {-0.34999999f, -1.3937501f, 0.44062501f})
      .Output<float>("var_out", {3}, {2.0390625f, 1.4333985f, 1.083545f})
      .Output<float>("saved_mean", {3}, {0.25f, -0.46875f, -0.296875f})
      .Output<float>("saved_var", {3}, {1.1953125f, 0.66699219f, 1.4177246f})
      .Run();
}

TEST_CASE("BatchNormalization opset 7 with spatial = 0 normalizes per activation",
          "[nn][BatchNormalization]") {
  OpTester("BatchNormalization", 7)
      .AttrInt("spatial", 0)
      .Input<float>("x", {2, 3, 2, 2}, kX2x3x2x2)
      .Input<float>("scale", {3, 2, 2},
                    {-0.75f, 1.0f, 0.875f, -1.125f, 1.375f, 0.625f, 0.75f, 1.25f, -0.25f, 1.0f,
                     1.5f, -1.625f})
      .Input<float>("b", {3, 2, 2},
                    {1.375f, -0.375f, -0.125f, -1.375f, 0.75f, -0.875f, 1.5f, -0.875f, 0.25f,
                     -0.375f, 0.5f, -1.25f})
      .Input<float>("mean", {3, 2, 2},
                    {-1.25f, 1.0f, 1.0f, 0.25f, 1.625f, -1.125f, 1.375f, -1.375f, 1.875f, 0.5f,
                     0.375f, 1.875f})
      .Input<float>(
          "var", {3, 2, 2},
          {1.625f, 1.625f, 2.25f, 1.0f, 2.125f, 1.75f, 1.625f, 1.875f, 2.0f, 1.375f, 0.5f, 1.875f})
      .Output<float>(
          "y", {2, 3, 2, 2},
          {1.5956299f, -1.9439242f,  0.020833015f, -1.5156243f, -2.3155301f, -0.46160254f,
           0.6174801f, -0.875f,      0.40467924f,  -2.0805993f, -1.0909743f, 0.82677579f,
           0.7866534f, -0.86528885f, -0.125f,      -3.2031159f, -1.6080999f, -0.048205078f,
           1.1322834f, -0.41856575f, 0.93500799f,  0.79759967f, -1.8864615f, 1.8651638f})
      .Run();
}

TEST_CASE("BatchNormalization on double and float16 with float statistics",
          "[nn][BatchNormalization]") {
  OpTester("BatchNormalization", 15)
      .Input<double>("x", {1, 2, 3}, {1.875, 0.875, -1.125, 0.125, 0.875, -1.75})
      .Input<double>("scale", {2}, {0.75, -0.5})
      .Input<double>("b", {2}, {0.375, 0.625})
      .Input<double>("mean", {2}, {0.625, 0.125})
      .Input<double>("var", {2}, {1.25, 2.25})
      .Output<double>("y", {1, 2, 3},
                      {1.2135221374805794, 0.5427044274961159, -0.7989309924728112, 0.625,
                       0.3750005555537037, 1.2499986111157408})
      .Run();
  OpTester("BatchNormalization", 15)
      .Input<Float16>("x", {1, 2, 2},
                      {Float16(-0.0f), Float16(-1.5f), Float16(-0.125f), Float16(0.125f)})
      .Input<float>("scale", {2}, {0.75f, -0.5f})
      .Input<float>("b", {2}, {0.375f, 0.625f})
      .Input<float>("mean", {2}, {0.625f, 0.125f})
      .Input<float>("var", {2}, {1.25f, 2.25f})
      .Output<Float16>(
          "y", {1, 2, 2},
          {Float16(-0.044250488f), Float16(-1.0507812f), Float16(0.70849609f), Float16(0.625f)})
      .SetTolerance(0.001, 0.001)
      .Run();
}

TEST_CASE("BatchNormalization rejects mismatched parameters", "[nn][BatchNormalization]") {
  OpTester("BatchNormalization", 15)
      .Input<float>("x", {1, 2, 1}, {1, 2})
      .Input<float>("scale", {3}, {1, 1, 1})
      .Input<float>("b", {2}, {0, 0})
      .Input<float>("mean", {2}, {0, 0})
      .Input<float>("var", {2}, {1, 1})
      .Output<float>("y", {1, 2, 1}, {0, 0})
      .RunExpectingError("expected 2 values");
}

}  // namespace ort::test
