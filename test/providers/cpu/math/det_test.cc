#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values from numpy.linalg.det.
namespace ort::test {

TEST_CASE("Det of single and batched matrices", "[math][Det]") {
  OpTester("Det", 11)
      .Input<float>("x", {3, 3}, {2.0f, 1.0f, 0.0f, 1.0f, 3.0f, 1.0f, 0.0f, 1.0f, 4.0f})
      .Output<float>("y", {}, {18.0f})
      .Run();
  OpTester("Det", 11)
      .Input<float>(
          "x", {2, 2, 4, 4},
          {-0.5f,  -0.0f, -1.25f, -0.25f, -1.75f, -0.0f,  0.25f,  -0.5f, -0.0f,  0.25f,  0.0f,
           -1.25f, -1.0f, -1.0f,  2.0f,   0.0f,   0.75f,  -1.25f, 0.0f,  -0.25f, -1.25f, -1.0f,
           -1.0f,  1.0f,  1.0f,   1.5f,   -0.75f, 0.0f,   1.0f,   0.25f, 1.5f,   -2.0f,  0.75f,
           -1.5f,  0.0f,  -0.5f,  -0.25f, 1.0f,   -1.75f, -1.75f, 1.75f, -0.0f,  -0.25f, -1.5f,
           0.0f,   0.75f, 1.5f,   -0.5f,  -1.5f,  1.0f,   -0.75f, 0.75f, 1.25f,  1.75f,  -1.25f,
           -1.0f,  -0.5f, 1.25f,  -0.25f, -0.25f, 1.25f,  -1.5f,  -1.5f, -1.75f})
      .Output<float>("y", {2, 2}, {-2.8125f, -3.4648438f, -9.5507812f, 6.859375f})
      .Run();
  OpTester("Det", 11)
      .Input<double>("x", {2, 2}, {1.0, 2.0, 2.0, 4.0})
      .Output<double>("y", {}, {0.0})
      .Run();
  OpTester("Det", 11)
      .Input<Float16>("x", {2, 2}, {Float16(0.0f), Float16(1.0f), Float16(1.0f), Float16(0.0f)})
      .Output<Float16>("y", {}, {Float16(-1.0f)})
      .Run();
  OpTester("Det", 11)
      .Input<float>("x", {2, 3}, {0.0f, -1.25f, -0.5f, -0.0f, 0.0f, -0.5f})
      .Output<float>("y", {1}, {0.0f})
      .RunExpectingError("must be [*, M, M]");
}

}  // namespace ort::test
