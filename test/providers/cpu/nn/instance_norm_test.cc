#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from the numpy formulas of each op (population variance).
namespace ort::test {

TEST_CASE("InstanceNormalization normalizes each plane", "[nn][InstanceNormalization]") {
  OpTester("InstanceNormalization", 6)
      .AttrFloat("epsilon", 0.0099999998f)
      .Input<float>("x", {2, 3, 4},
                    {1.125f, -0.375f, -1.875f, 0.125f,  -1.125f, 1.0f,    -0.5f,  -0.5f,
                     1.625f, -0.375f, -0.625f, -0.625f, -0.125f, -1.625f, 0.125f, 1.625f,
                     0.25f,  1.0f,    1.75f,   1.375f,  1.0f,    1.25f,   1.25f,  -1.0f})
      .Input<float>("scale", {3}, {-0.125f, -0.625f, -1.0f})
      .Input<float>("b", {3}, {0.25f, -0.75f, 0.5f})
      .Output<float>(
          "y", {2, 3, 4},
          {0.091901809f, 0.26437256f,  0.43684334f, 0.20688231f,  -0.08151406f, -1.7651082f,
           -0.57668883f, -0.57668883f, -1.212306f,  0.89514756f,  1.1585792f,   1.1585792f,
           0.2635074f,   0.42559618f,  0.2364926f,  0.074403837f, 0.18571121f,  -0.64603209f,
           -1.4777753f,  -1.0619037f,  0.10485247f, -0.15857923f, -0.15857923f, 2.212306f})
      .Run();
}

TEST_CASE("InstanceNormalization handles an empty batch", "[nn][InstanceNormalization]") {
  OpTester("InstanceNormalization", 6)
      .Input<float>("x", {0, 2, 3}, {})
      .Input<float>("scale", {2}, {1, 1})
      .Input<float>("b", {2}, {0, 0})
      .Output<float>("y", {0, 2, 3}, {})
      .Run();
}

}  // namespace ort::test
