#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

// Hand-derived on the image [[1, 2], [3, 4]]. With align_corners=0 the grid point (0, 0) maps to
// pixel (0.5, 0.5) and (-1, -1) to (-0.5, -0.5); with align_corners=1 (1, 1) maps to (1, 1).

TEST_CASE("GridSample bilinear and nearest", "[tensor][GridSample]") {
  OpTester("GridSample", 16)
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("grid", {1, 1, 2, 2}, {0, 0, -1, -1})
      .Output<float>("y", {1, 1, 1, 2}, {2.5f, 0.25f})
      .Run();
  OpTester("GridSample", 16)
      .AttrInt("align_corners", 1)
      .Input<double>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<double>("grid", {1, 1, 1, 2}, {1, 1})
      .Output<double>("y", {1, 1, 1, 1}, {4})
      .Run();
  // nearbyint(0.5) rounds half to even: pixel (0, 0).
  OpTester("GridSample", 16)
      .AttrString("mode", "nearest")
      .Input<float>("x", {1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})
      .Input<float>("grid", {1, 1, 1, 2}, {0, 0})
      .Output<float>("y", {1, 2, 1, 1}, {1, 5})
      .Run();
}

TEST_CASE("GridSample padding modes", "[tensor][GridSample]") {
  OpTester("GridSample", 16)
      .AttrString("padding_mode", "border")
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("grid", {1, 1, 2, 2}, {-1, -1, 5, 5})
      .Output<float>("y", {1, 1, 1, 2}, {1, 4})
      .Run();
  OpTester("GridSample", 16)
      .AttrString("padding_mode", "reflection")
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("grid", {1, 1, 1, 2}, {-1, -1})
      .Output<float>("y", {1, 1, 1, 1}, {1})
      .Run();
}

TEST_CASE("GridSample bicubic", "[tensor][GridSample]") {
  // Taps at distance 0.5 weigh 0.59375 and at 1.5 weigh -0.09375 (a = -0.75).
  OpTester("GridSample", 16)
      .AttrString("mode", "bicubic")
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("grid", {1, 1, 1, 2}, {0, 0})
      .Output<float>("y", {1, 1, 1, 1}, {3.525390625f})
      .Run();
  OpTester("GridSample", 16)
      .AttrString("mode", "bicubic")
      .AttrString("padding_mode", "border")
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("grid", {1, 1, 1, 2}, {0, 0})
      .Output<float>("y", {1, 1, 1, 1}, {2.5f})
      .Run();
}

TEST_CASE("GridSample rejects bad shapes and attributes", "[tensor][GridSample]") {
  OpTester("GridSample", 16)
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("grid", {1, 1, 1, 3}, {0, 0, 0})
      .Output<float>("y", {1, 1, 1, 1}, {0})
      .RunExpectingError("grid [N,Ho,Wo,2]");
  OpTester("GridSample", 16)
      .AttrString("mode", "area")
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("grid", {1, 1, 1, 2}, {0, 0})
      .Output<float>("y", {1, 1, 1, 1}, {0})
      .RunExpectingError("unsupported mode");
  OpTester("GridSample", 16)
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("grid", {1, 0, 1, 2}, {})
      .Output<float>("y", {1, 1, 0, 1}, {})
      .Run();
}

}  // namespace ort::test
