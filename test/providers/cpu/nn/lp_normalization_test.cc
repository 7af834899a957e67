#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values from numpy: x / norm(x, ord=p, axis), zero vectors kept at zero.
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX3x3 = {1, -2, 2, 0, 0, 0, 3, 4, 0};

}  // namespace

TEST_CASE("LpNormalization divides by the L2 norm along the last axis", "[nn][LpNormalization]") {
  OpTester("LpNormalization", 1)
      .Input<float>("x", {3, 3}, kX3x3)
      .Output<float>("y", {3, 3}, {0.33333334f, -0.6666667f, 0.6666667f, 0, 0, 0, 0.6f, 0.8f, 0})
      .Run();
}

TEST_CASE("LpNormalization divides by the L1 norm along axis 0", "[nn][LpNormalization]") {
  OpTester("LpNormalization", 1)
      .AttrInt("axis", 0)
      .AttrInt("p", 1)
      .Input<float>("x", {3, 3}, kX3x3)
      .Output<float>("y", {3, 3}, {0.25f, -0.33333334f, 1, 0, 0, 0, 0.75f, 0.6666667f, 0})
      .Run();
}

}  // namespace ort::test
