#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from the numpy formulas of each op (population variance).
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX2x3x4 = {0.375f,  -1.625f, -0.25f,  -0.5f,   0.875f,  -1.625f,
                                    -1.375f, 0.0f,    -0.375f, 0.625f,  -0.625f, -1.25f,
                                    1.75f,   -1.0f,   -1.375f, -0.875f, -0.625f, -1.125f,
                                    0.125f,  1.75f,   -1.5f,   -0.375f, 0.625f,  1.5f};

}  // namespace

TEST_CASE("LayerNormalization over trailing axes with Mean and InvStdDev",
          "[nn][LayerNormalization]") {
  OpTester("LayerNormalization", 17)
      .AttrInt("axis", 1)
      .Input<float>("x", {2, 3, 4}, kX2x3x4)
      .Input<float>("scale", {3, 4},
                    {2.0f, -1.375f, 0.125f, 1.5f, -1.75f, 0.375f, -1.25f, 1.125f, 1.75f, 0.125f,
                     -2.0f, -1.75f})
      .Input<float>("b", {4}, {-0.375f, 1.375f, -1.0f, 0.625f})
      .Output<float>(
          "y", {2, 3, 4},
          {1.701766f,   3.2903104f, -0.96517617f, 0.58701038f,  -3.2558796f,  0.85264266f,
           0.36129498f, 1.280321f,  -0.15339389f, 1.5427876f,   -0.64543015f, 2.2648854f,
           2.7813025f,  2.4415894f, -1.1370852f,  -0.37806225f, 0.42076272f,  1.0439894f,
           -1.2340479f, 2.4004202f, -2.4814308f,  1.3449081f,   -2.230423f,   -1.7622881f})
      .Output<float>("mean", {2, 1, 1}, {-0.47916666f, -0.09375f})
      .Output<float>("inv_std_dev", {2, 1, 1}, {1.215668f, 0.85594642f})
      .Run();
  OpTester("LayerNormalization", 17)
      .Input<float>("x", {2, 3, 4}, kX2x3x4)
      .Input<float>("scale", {4}, {2.0f, -1.375f, 0.125f, 1.5f})
      .Output<float>(
          "y", {2, 3, 4},
          {2.4188085f,   2.1380539f,  0.043193009f, 0.0f,         2.7552323f,    1.4732839f,
           -0.10332121f, 0.78064919f, 0.092547946f, -2.0996814f,  -0.040489726f, -1.8740959f,
           3.4257791f,   0.69271266f, -0.10075821f, -0.60454929f, -1.2069114f,   1.4619433f,
           0.010775995f, 2.370719f,   -2.7907169f,  0.53721303f,  0.062791131f,  1.9255947f})
      .OmittedOutput()
      .Output<float>("inv_std_dev", {2, 3, 1},
                     {1.3821763f, 0.97963816f, 1.4807671f, 0.80606568f, 0.91955155f, 0.89302939f})
      .Run();
}

TEST_CASE("LayerNormalization rejects a scale that does not broadcast",
          "[nn][LayerNormalization]") {
  OpTester("LayerNormalization", 17)
      .Input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("scale", {2}, {1, 1})
      .Output<float>("y", {2, 3}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("does not broadcast");
}

// numpy on float64; X is float16, Scale and Y float (ORT's mixed-precision definitions).
TEST_CASE("LayerNormalization gives Y the type of Scale", "[nn][LayerNormalization]") {
  const std::vector<Float16> x = {Float16(1.0f), Float16(2.0f), Float16(3.0f), Float16(4.0f)};
  OpTester("LayerNormalization", 1)
      .Input<Float16>("x", {1, 4}, x)
      .Input<float>("scale", {4}, {1, 1, 1, 1})
      .Output<float>("y", {1, 4}, {-1.341635f, -0.4472118f, 0.4472118f, 1.341635f})
      .Run();
  OpTester("SimplifiedLayerNormalization", 1)
      .Input<Float16>("x", {1, 4}, x)
      .Input<float>("scale", {4}, {1, 2, 1, 2})
      .Output<float>("y", {1, 4}, {0.3651481f, 1.460593f, 1.095444f, 2.921185f})
      .Run();
}

// numpy: x / sqrt(mean(x * x over the normalized axes) + epsilon) * scale
TEST_CASE("RMSNormalization (opset 23)", "[nn][RMSNormalization]") {
  OpTester("RMSNormalization", 23)
      .Input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("scale", {3}, {1, 0.5f, 2})
      .Output<float>("y", {2, 3},
                     {0.46290955f, 0.46290955f, 2.7774573f, 0.78954188f, 0.49346368f, 2.3686256f})
      .Run();
  OpTester("RMSNormalization", 23)
      .AttrInt("axis", 1)
      .Input<float>("x", {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})
      .Input<float>("scale", {}, {1})
      .Output<float>("y", {2, 2, 2},
                     {0.36514813f, 0.73029626f, 1.0954444f, 1.4605925f, 0.75809796f, 0.90971755f,
                      1.0613371f, 1.2129567f})
      .Run();
}

}  // namespace ort::test
