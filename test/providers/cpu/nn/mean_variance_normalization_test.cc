#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from the numpy formulas of each op (population variance).
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX2x3x2x2 = {-0.25f,  0.25f,  -0.875f, 1.5f,   -1.125f, 0.125f,
                                      -1.375f, 0.5f,   1.625f,  1.5f,   -1.5f,   0.5f,
                                      1.625f,  -1.25f, -0.375f, 0.875f, 1.0f,    -0.25f,
                                      0.5f,    0.625f, -0.625f, 0.625f, 0.25f,   0.75f};

}  // namespace

TEST_CASE("MeanVarianceNormalization over default and explicit axes",
          "[nn][MeanVarianceNormalization]") {
  OpTester("MeanVarianceNormalization", 13)
      .Input<float>("x", {2, 3, 2, 2}, kX2x3x2x2)
      .Output<float>(
          "y", {2, 3, 2, 2},
          {-0.438357f,  0.062622428f, -1.0645813f,  1.315071f,   -1.4055638f,  0.15617377f,
           -1.7179114f, 0.62469506f,  1.268432f,    1.1399832f,  -1.9427884f,  0.11239271f,
           1.4403158f,  -1.4403158f,  -0.56360185f, 0.68884671f, 1.2493901f,   -0.31234753f,
           0.62469506f, 0.78086883f,  -1.0436466f,  0.24084152f, -0.14450492f, 0.36929035f})
      .Run();
  OpTester("MeanVarianceNormalization", 13)
      .AttrInts("axes", {-1})
      .Input<float>("x", {2, 3, 2, 2}, kX2x3x2x2)
      .Output<float>("y", {2, 3, 2, 2}, {-1.0f, 1.0f,  -1.0f, 1.0f, -1.0f, 1.0f,  -1.0f, 1.0f,
                                         1.0f,  -1.0f, -1.0f, 1.0f, 1.0f,  -1.0f, -1.0f, 1.0f,
                                         1.0f,  -1.0f, -1.0f, 1.0f, -1.0f, 1.0f,  -1.0f, 1.0f})
      .SetTolerance(0.001, 0.0001)
      .Run();
}

TEST_CASE("MeanVarianceNormalization opset 1 across channels or mean only",
          "[nn][MeanVarianceNormalization]") {
  const std::vector<float> x = {-0.25f, 0.25f,  -0.875f, 1.5f,   -1.125f, 0.125f, -1.375f, 0.5f,
                                1.625f, 1.5f,   -1.5f,   0.5f,   1.625f,  -1.25f, -0.375f, 0.875f,
                                1.0f,   -0.25f, 0.5f,    0.625f, -0.625f, 0.625f, 0.25f,   0.75f};
  // Per image over C, H, W.
  OpTester("MeanVarianceNormalization", 1)
      .AttrInt("across_channels", 1)
      .Input<float>("x", {2, 3, 2, 2}, x)
      .Output<float>(
          "y", {2, 3, 2, 2},
          {-0.30015153f, 0.16459922f, -0.88108993f, 1.3264761f,  -1.1134653f,   0.048411537f,
           -1.3458407f,  0.39697459f, 1.4426638f,   1.3264761f,  -1.4620284f,   0.39697459f,
           1.7127408f,   -2.0389771f, -0.89714998f, 0.7340318f,  0.89714998f,   -0.7340318f,
           0.24467726f,  0.40779543f, -1.2233863f,  0.40779543f, -0.081559084f, 0.57091361f})
      .Run();
  // Per channel over H, W, mean subtracted only.
  OpTester("MeanVarianceNormalization", 1)
      .AttrInt("normalize_variance", 0)
      .Input<float>("x", {2, 3, 2, 2}, x)
      .Output<float>(
          "y", {2, 3, 2, 2},
          {-0.40625f, 0.09375f,  -1.03125f, 1.34375f,  -0.65625f, 0.59375f,  -0.90625f, 0.96875f,
           1.09375f,  0.96875f,  -2.03125f, -0.03125f, 1.40625f,  -1.46875f, -0.59375f, 0.65625f,
           0.53125f,  -0.71875f, 0.03125f,  0.15625f,  -0.875f,   0.375f,    0.0f,      0.5f})
      .Run();
}

}  // namespace ort::test
