#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values from torch.nn.functional.affine_grid (torch 1.13).
namespace ort::test {

TEST_CASE("AffineGrid builds 2-D and 3-D sampling grids", "[tensor][AffineGrid]") {
  const std::vector<float> theta = {1.0f, 0.5f, 0.1f, 0.0f, 2.0f, -0.2f};
  OpTester("AffineGrid", 20)
      .Input<float>("theta", {1, 2, 3}, theta)
      .Input<int64_t>("size", {4}, {1, 1, 2, 3})
      .Output<float>("grid", {1, 2, 3, 2},
                     {-0.8166667f, -1.2f, -0.15f, -1.2f, 0.5166667f, -1.2f, -0.3166667f, 0.8f,
                      0.35f, 0.8f, 1.016667f, 0.8f})
      .Run();
  OpTester("AffineGrid", 20)
      .AttrInt("align_corners", 1)
      .Input<float>("theta", {1, 2, 3}, theta)
      .Input<int64_t>("size", {4}, {1, 1, 2, 3})
      .Output<float>("grid", {1, 2, 3, 2},
                     {-1.4f, -2.2f, -0.4f, -2.2f, 0.6f, -2.2f, -0.4f, 1.8f, 0.6f, 1.8f, 1.6f, 1.8f})
      .Run();
  // A length-1 axis (H) sits at 0 without align_corners.
  OpTester("AffineGrid", 20)
      .Input<float>("theta", {1, 3, 4}, {1, 0, 0, 0.5f, 0, 1, 0, 0, 0.2f, 0, 1, 0})
      .Input<int64_t>("size", {5}, {1, 1, 2, 1, 2})
      .Output<float>("grid", {1, 2, 1, 2, 3}, {0, 0, -0.6f, 1, 0, -0.4f, 0, 0, 0.4f, 1, 0, 0.6f})
      .Run();
  OpTester("AffineGrid", 20)
      .Input<float>("theta", {1, 2, 3}, theta)
      .Input<int64_t>("size", {5}, {1, 1, 2, 2, 2})
      .Output<float>("grid", {1}, {0})
      .RunExpectingError("expects theta");
}

}  // namespace ort::test
