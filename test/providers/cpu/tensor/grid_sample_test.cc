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

TEST_CASE("GridSample 20 renames the modes and samples volumes", "[tensor][GridSample]") {
  OpTester("GridSample", 20)
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("grid", {1, 1, 2, 2}, {0, 0, -1, -1})
      .Output<float>("y", {1, 1, 1, 2}, {2.5f, 0.25f})
      .Run();
  OpTester("GridSample", 20)
      .AttrString("mode", "bilinear")
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("grid", {1, 1, 1, 2}, {0, 0})
      .Output<float>("y", {1, 1, 1, 1}, {0})
      .RunExpectingError("unsupported mode");
  // The volume z0 = [[1, 2], [3, 4]], z1 = [[5, 6], [7, 8]], points (x, y, z) with
  // align_corners=1: the center averages all eight; the corners read single voxels.
  const std::vector<float> volume = {1, 2, 3, 4, 5, 6, 7, 8};
  OpTester("GridSample", 20)
      .AttrInt("align_corners", 1)
      .Input<float>("x", {1, 1, 2, 2, 2}, volume)
      .Input<float>("grid", {1, 1, 1, 4, 3}, {0, 0, 0, 1, 1, 1, -1, -1, 1, 1, -1, -1})
      .Output<float>("y", {1, 1, 1, 1, 4}, {4.5f, 8, 5, 2})
      .Run();
  // align_corners=0: (-1, -1, -1) is voxel (-0.5, -0.5, -0.5), nearest (0, 0, 0); (1, 1, 1) is
  // (1.5, 1.5, 1.5), nearest (2, 2, 2), outside: zero padding.
  OpTester("GridSample", 20)
      .AttrString("mode", "nearest")
      .Input<float>("x", {1, 1, 2, 2, 2}, volume)
      .Input<float>("grid", {1, 1, 1, 2, 3}, {-1, -1, -1, 1, 1, 1})
      .Output<float>("y", {1, 1, 1, 1, 2}, {1, 0})
      .Run();
  OpTester("GridSample", 20)
      .AttrString("mode", "cubic")
      .Input<float>("x", {1, 1, 2, 2, 2}, volume)
      .Input<float>("grid", {1, 1, 1, 1, 3}, {0, 0, 0})
      .Output<float>("y", {1, 1, 1, 1, 1}, {0})
      .RunExpectingError("cubic sampling needs a 4-D input");
}

}  // namespace ort::test
