#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

// Expected values follow the spec's reference: crop [d, dim - d - (diff odd)) with
// d = (dim - len) / 2, pad the same way (np.zeros then a centered slice assignment).
TEST_CASE("CenterCropPad crops and pads around the center", "[tensor][CenterCropPad]") {
  // 5 -> 3: d = 1, x[1:4]
  OpTester("CenterCropPad", 18)
      .Input<float>("x", {5}, {1, 2, 3, 4, 5})
      .Input<int64_t>("shape", {1}, {3})
      .Output<float>("y", {3}, {2, 3, 4})
      .Run();
  // 4 -> 7: d = 1 (diff 3 is odd), y[1:5] = x
  OpTester("CenterCropPad", 18)
      .Input<float>("x", {4}, {1, 2, 3, 4})
      .Input<int64_t>("shape", {1}, {7})
      .Output<float>("y", {7}, {0, 1, 2, 3, 4, 0, 0})
      .Run();
  // Only the last axis (axes = [-1]), 3 -> 2: d = 0, x[:, 0:2]
  OpTester("CenterCropPad", 18)
      .AttrInts("axes", {-1})
      .Input<int32_t>("x", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("shape", {1}, {2})
      .Output<int32_t>("y", {2, 2}, {1, 2, 4, 5})
      .Run();
  // Crop axis 0 (3 -> 1, row 1) and pad axis 1 (2 -> 4, y[:, 1:3] = x)
  OpTester("CenterCropPad", 18)
      .Input<int64_t>("x", {3, 2}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("shape", {2}, {1, 4})
      .Output<int64_t>("y", {1, 4}, {0, 3, 4, 0})
      .Run();
  // Channels-last image: crop H and W, keep C (axes [0, 1])
  OpTester("CenterCropPad", 18)
      .AttrInts("axes", {0, 1})
      .Input<uint8_t>("x", {3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9})
      .Input<int64_t>("shape", {2}, {1, 1})
      .Output<uint8_t>("y", {1, 1, 1}, {5})
      .Run();
}

TEST_CASE("CenterCropPad rejects a shape that does not match the axes", "[tensor][CenterCropPad]") {
  OpTester("CenterCropPad", 18)
      .Input<float>("x", {2, 2}, {1, 2, 3, 4})
      .Input<int64_t>("shape", {1}, {1})
      .Output<float>("y", {1}, {0})
      .RunExpectingError("shape has 1 entries for 2 axes");
}

}  // namespace ort::test
