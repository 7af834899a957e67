#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from the numpy formulas of each op (population variance).
namespace ort::test {

TEST_CASE("MeanVarianceNormalization over default and explicit axes",
          "[nn][MeanVarianceNormalization]") {
  OpTester("MeanVarianceNormalization", 13)
      .Input<float>("x", {2, 3, 2, 2},
                    {-0.25f, 0.25f,  -0.875f, 1.5f,   -1.125f, 0.125f, -1.375f, 0.5f,
                     1.625f, 1.5f,   -1.5f,   0.5f,   1.625f,  -1.25f, -0.375f, 0.875f,
                     1.0f,   -0.25f, 0.5f,    0.625f, -0.625f, 0.625f, 0.25f,   0.75f})
      .Output<float>(
          "y", {2, 3, 2, 2},
          {-0.438357f,  0.062622428f, -1.0645813f,  1.315071f,   -1.4055638f,  0.15617377f,
           -1.7179114f, 0.62469506f,  1.268432f,    1.1399832f,  -1.9427884f,  0.11239271f,
           1.4403158f,  -1.4403158f,  -0.56360185f, 0.68884671f, 1.2493901f,   -0.31234753f,
           0.62469506f, 0.78086883f,  -1.0436466f,  0.24084152f, -0.14450492f, 0.36929035f})
      .Run();
  OpTester("MeanVarianceNormalization", 13)
      .AttrInts("axes", {-1})
      .Input<float>("x", {2, 3, 2, 2},
                    {-0.25f, 0.25f,  -0.875f, 1.5f,   -1.125f, 0.125f, -1.375f, 0.5f,
                     1.625f, 1.5f,   -1.5f,   0.5f,   1.625f,  -1.25f, -0.375f, 0.875f,
                     1.0f,   -0.25f, 0.5f,    0.625f, -0.625f, 0.625f, 0.25f,   0.75f})
      .Output<float>("y", {2, 3, 2, 2}, {-1.0f, 1.0f,  -1.0f, 1.0f, -1.0f, 1.0f,  -1.0f, 1.0f,
                                         1.0f,  -1.0f, -1.0f, 1.0f, 1.0f,  -1.0f, -1.0f, 1.0f,
                                         1.0f,  -1.0f, -1.0f, 1.0f, -1.0f, 1.0f,  -1.0f, 1.0f})
      .SetTolerance(0.001, 0.0001)
      .Run();
}

}  // namespace ort::test
