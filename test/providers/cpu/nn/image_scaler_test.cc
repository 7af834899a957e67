#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("ImageScaler scales and adds a bias per channel", "[nn][ImageScaler]") {
  // 2 * [1, 2] + 1 and 2 * [3, 4] - 1
  OpTester("ImageScaler", 1)
      .AttrFloat("scale", 2.0f)
      .AttrFloats("bias", {1.0f, -1.0f})
      .Input<float>("x", {1, 2, 1, 2}, {1, 2, 3, 4})
      .Output<float>("y", {1, 2, 1, 2}, {3, 5, 5, 7})
      .Run();
  OpTester("ImageScaler", 1)
      .AttrFloats("bias", {1.0f})
      .Input<float>("x", {1, 2, 1, 1}, {1, 2})
      .Output<float>("y", {1, 2, 1, 1}, {0, 0})
      .RunExpectingError("bias has 1 values for 2 channels");
}

}  // namespace ort::test
