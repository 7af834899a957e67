// com.microsoft NhwcMaxPool on hand-derived channels-last tensors.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("NhwcMaxPool takes each window's maximum per channel", "[nn][NhwcMaxPool]") {
  // Channel 0 holds h * 3 + w, channel 1 holds 100 - 10 (h * 3 + w): interleaved [1, 3, 3, 2].
  OpTester("NhwcMaxPool", 1, "com.microsoft")
      .AttrInts("kernel_shape", {2, 2})
      .Input<uint8_t>("x", {1, 3, 3, 2},
                      {0, 100, 1, 90, 2, 80, 3, 70, 4, 60, 5, 50, 6, 40, 7, 30, 8, 20})
      .Output<uint8_t>("y", {1, 2, 2, 2}, {4, 100, 5, 90, 7, 70, 8, 60})
      .Run();
}

TEST_CASE("NhwcMaxPool never takes the padding", "[nn][NhwcMaxPool]") {
  // One 3x3 window at stride 2 over a 2x2 negative image padded by 1: the maximum is -3, not 0.
  OpTester("NhwcMaxPool", 1, "com.microsoft")
      .AttrInts("kernel_shape", {3, 3})
      .AttrInts("pads", {1, 1, 1, 1})
      .AttrInts("strides", {2, 2})
      .Input<int8_t>("x", {1, 2, 2, 1}, {-5, -7, -3, -9})
      .Output<int8_t>("y", {1, 1, 1, 1}, {-3})
      .Run();
}

TEST_CASE("NhwcMaxPool rejects an input that is not [N, spatial..., C]", "[nn][NhwcMaxPool]") {
  OpTester("NhwcMaxPool", 1, "com.microsoft")
      .AttrInts("kernel_shape", {2, 2})
      .Input<uint8_t>("x", {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})
      .UncheckedOutput("y")
      .RunExpectingError("must be [N, spatial..., C]");
}

}  // namespace ort::test
