#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

// x[0, 0] = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
TEST_CASE("Crop cuts borders or a scale window", "[tensor][Crop]") {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  // border (left, top, right, bottom) = (1, 1, 1, 0): rows 1-2, columns 1-2
  OpTester("Crop", 1)
      .AttrInts("border", {1, 1, 1, 0})
      .Input<float>("x", {1, 1, 3, 4}, x)
      .Output<float>("y", {1, 1, 2, 2}, {6, 7, 10, 11})
      .Run();
  // a 2 x 3 window at top 0, left 1
  OpTester("Crop", 1)
      .AttrInts("border", {1, 0, 0, 0})
      .AttrInts("scale", {2, 3})
      .Input<float>("x", {1, 1, 3, 4}, x)
      .Output<float>("y", {1, 1, 2, 3}, {2, 3, 4, 6, 7, 8})
      .Run();
  OpTester("Crop", 1)
      .AttrInts("border", {0, 2, 0, 2})
      .Input<float>("x", {1, 1, 3, 4}, x)
      .Output<float>("y", {1, 1, 0, 4}, {})
      .RunExpectingError("does not fit");
}

TEST_CASE("DynamicSlice is Slice-10 without steps", "[tensor][DynamicSlice]") {
  OpTester("DynamicSlice", 1)
      .Input<int32_t>("x", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("starts", {1}, {1})
      .Input<int64_t>("ends", {1}, {3})
      .Input<int64_t>("axes", {1}, {1})
      .Output<int32_t>("y", {2, 2}, {2, 3, 5, 6})
      .Run();
  OpTester("DynamicSlice", 1)
      .Input<int32_t>("x", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("starts", {2}, {0, 1})
      .Input<int64_t>("ends", {2}, {1, 3})
      .Output<int32_t>("y", {1, 2}, {2, 3})
      .Run();
}

}  // namespace ort::test
