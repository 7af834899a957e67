#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from a numpy loop over output positions and window taps.
namespace ort::test {

TEST_CASE("MaxUnpool scatters values back, with and without output_shape", "[nn][MaxUnpool]") {
  OpTester("MaxUnpool", 11)
      .AttrInts("kernel_shape", {2, 2})
      .AttrInts("strides", {2, 2})
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<int64_t>("i", {1, 1, 2, 2}, {5, 7, 13, 15})
      .Output<float>("y", {1, 1, 4, 4}, {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4})
      .Run();
  // A larger output keeps the coordinates of the 4x4 unpooled layout.
  OpTester("MaxUnpool", 11)
      .AttrInts("kernel_shape", {2, 2})
      .AttrInts("strides", {2, 2})
      .Input<float>("x", {1, 1, 2, 2}, {5, 6, 7, 8})
      .Input<int64_t>("i", {1, 1, 2, 2}, {0, 3, 12, 15})
      .Input<int64_t>("output_shape", {4}, {1, 1, 5, 5})
      .Output<float>("y", {1, 1, 5, 5},
                     {5, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 8, 0, 0, 0, 0, 0, 0})
      .Run();
  OpTester("MaxUnpool", 11)
      .AttrInts("kernel_shape", {2})
      .AttrInts("strides", {2})
      .Input<float>("x", {1, 1, 2}, {5, 6})
      .Input<int64_t>("i", {1, 1, 2}, {0, 4})
      .Output<float>("y", {1, 1, 4}, {0, 0, 0, 0})
      .RunExpectingError("outside [0, 4)");
}

}  // namespace ort::test
