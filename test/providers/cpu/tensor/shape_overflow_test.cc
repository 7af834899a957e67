// Kernels that build an output shape from tensor data: a shape whose size overflows int64 is an
// error naming the node, never a wrapped product (a small buffer written as a huge tensor).
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {
constexpr int64_t k2Pow31 = int64_t{1} << 31;
}  // namespace

TEST_CASE("Reshape refuses targets whose size overflows or is negative", "[tensor][Reshape]") {
  // 2^33 * 2^31 * 3 wraps to 0 in int64, the element count of the empty input.
  OpTester("Reshape", 14)
      .Input<float>("x", {0}, std::vector<float>{})
      .Input<int64_t>("shape", {3}, {int64_t{1} << 33, k2Pow31, 3})
      .UncheckedOutput("y")
      .RunExpectingError("multiply past int64");
  OpTester("Reshape", 14)
      .Input<float>("x", {2}, {1, 2})
      .Input<int64_t>("shape", {2}, {-2, -1})
      .UncheckedOutput("y")
      .RunExpectingError("shape[0] = -2 is invalid");
  OpTester("Reshape", 14)
      .Input<float>("x", {0}, std::vector<float>{})
      .Input<int64_t>("shape", {3}, {int64_t{1} << 62, 4, -1})
      .UncheckedOutput("y")
      .RunExpectingError("multiply past int64");
}

TEST_CASE("Expand and ConstantOfShape refuse overflowing shapes", "[tensor][Expand]") {
  OpTester("Expand", 13)
      .Input<float>("x", {1}, {1})
      .Input<int64_t>("shape", {3}, {k2Pow31, k2Pow31, 4})
      .UncheckedOutput("y")
      .RunExpectingError("multiply past int64");
  OpTester("ConstantOfShape", 20)
      .Input<int64_t>("shape", {3}, {k2Pow31, k2Pow31, 4})
      .UncheckedOutput("y")
      .RunExpectingError("multiply past int64");
  // 2^62 floats fit in int64 as a count, not as bytes.
  OpTester("ConstantOfShape", 20)
      .Input<int64_t>("shape", {1}, {int64_t{1} << 62})
      .UncheckedOutput("y")
      .RunExpectingError("needs 2^63 bytes or more");
}

TEST_CASE("Tile, Pad and Concat refuse sizes past int64", "[tensor][Tile]") {
  OpTester("Tile", 13)
      .Input<float>("x", {2}, {1, 2})
      .Input<int64_t>("repeats", {1}, {int64_t{1} << 62})
      .UncheckedOutput("y")
      .RunExpectingError("overflow int64");
  OpTester("Tile", 13)
      .Input<float>("x", {2, 2}, {1, 2, 3, 4})
      .Input<int64_t>("repeats", {2}, {k2Pow31, k2Pow31})
      .UncheckedOutput("y")
      .RunExpectingError("multiply past int64");
  OpTester("Pad", 13)
      .Input<float>("x", {2}, {1, 2})
      .Input<int64_t>("pads", {2}, {int64_t{1} << 62, int64_t{1} << 62})
      .UncheckedOutput("y")
      .RunExpectingError("overflow int64");
  OpTester("Concat", 13)
      .AttrInt("axis", 0)
      .Input<float>("a", {int64_t{1} << 62, 0}, std::vector<float>{})
      .Input<float>("b", {int64_t{1} << 62, 0}, std::vector<float>{})
      .UncheckedOutput("y")
      .RunExpectingError("add up past int64");
}

}  // namespace ort::test
