#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Squeeze removes the given or all unit axes", "[tensor][Squeeze]") {
  OpTester("Squeeze", 13)
      .Input<float>("data", {1, 3, 1, 2}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("axes", {2}, {0, -2})
      .Output<float>("squeezed", {3, 2}, {1, 2, 3, 4, 5, 6})
      .Run();
  OpTester("Squeeze", 13)
      .Input<float>("data", {1, 3, 1, 2}, {1, 2, 3, 4, 5, 6})
      .Output<float>("squeezed", {3, 2}, {1, 2, 3, 4, 5, 6})
      .Run();
  OpTester("Squeeze", 13)
      .Input<float>("data", {1, 2, 1}, {1, 2})
      .Input<int64_t>("axes", {0}, {})
      .Output<float>("squeezed", {2}, {1, 2})
      .Run();
  OpTester("Squeeze", 11)
      .AttrInts("axes", {2})
      .Input<int64_t>("data", {1, 3, 1}, {1, 2, 3})
      .Output<int64_t>("squeezed", {1, 3}, {1, 2, 3})
      .Run();
  OpTester("Squeeze", 1)
      .Input<std::string>("data", {1, 1}, {"x"})
      .Output<std::string>("squeezed", {}, {"x"})
      .Run();
}

TEST_CASE("Squeeze rejects non-unit and repeated axes", "[tensor][Squeeze]") {
  OpTester("Squeeze", 13)
      .Input<float>("data", {1, 3}, {1, 2, 3})
      .Input<int64_t>("axes", {1}, {1})
      .Output<float>("squeezed", {1, 3}, {1, 2, 3})
      .RunExpectingError("size is not 1");
  OpTester("Squeeze", 13)
      .Input<float>("data", {1, 3}, {1, 2, 3})
      .Input<int64_t>("axes", {2}, {0, -2})
      .Output<float>("squeezed", {3}, {1, 2, 3})
      .RunExpectingError("repeated");
  OpTester("Squeeze", 13)
      .Input<float>("data", {1, 3}, {1, 2, 3})
      .Input<int64_t>("axes", {1}, {2})
      .Output<float>("squeezed", {3}, {1, 2, 3})
      .RunExpectingError("out of range");
}

TEST_CASE("Unsqueeze inserts unit axes of the output rank", "[tensor][Unsqueeze]") {
  OpTester("Unsqueeze", 13)
      .Input<float>("data", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("axes", {2}, {3, 0})
      .Output<float>("expanded", {1, 2, 3, 1}, {1, 2, 3, 4, 5, 6})
      .Run();
  OpTester("Unsqueeze", 13)
      .Input<float>("data", {2, 3}, {1, 2, 3, 4, 5, 6})
      .ConstantInput<int64_t>("axes", {1}, {-2})
      .Output<float>("expanded", {2, 1, 3}, {1, 2, 3, 4, 5, 6})
      .Run();
  OpTester("Unsqueeze", 11)
      .AttrInts("axes", {0})
      .Input<int64_t>("data", {}, {5})
      .Output<int64_t>("expanded", {1}, {5})
      .Run();
  OpTester("Unsqueeze", 1)
      .AttrInts("axes", {1, 2})
      .Input<bool>("data", {2}, {true, false})
      .Output<bool>("expanded", {2, 1, 1}, {true, false})
      .Run();
  OpTester("Unsqueeze", 13)
      .Input<float>("data", {0, 3}, {})
      .Input<int64_t>("axes", {1}, {1})
      .Output<float>("expanded", {0, 1, 3}, {})
      .Run();
}

TEST_CASE("Unsqueeze rejects bad axes", "[tensor][Unsqueeze]") {
  OpTester("Unsqueeze", 13)
      .Input<float>("data", {2}, {1, 2})
      .Input<int64_t>("axes", {2}, {0, 0})
      .Output<float>("expanded", {1, 1, 2}, {1, 2})
      .RunExpectingError("repeated");
  OpTester("Unsqueeze", 13)
      .Input<float>("data", {2}, {1, 2})
      .Input<int64_t>("axes", {1}, {2})
      .Output<float>("expanded", {2, 1}, {1, 2})
      .RunExpectingError("out of range");
  OpTester("Unsqueeze", 11)
      .Input<float>("data", {2}, {1, 2})
      .Output<float>("expanded", {2, 1}, {1, 2})
      .RunExpectingError("axes are required");
}

TEST_CASE("Identity passes tensors through", "[tensor][Identity]") {
  OpTester("Identity", 16)
      .Input<float>("x", {2, 2}, {1, 2, 3, 4})
      .Output<float>("y", {2, 2}, {1, 2, 3, 4})
      .Run();
  OpTester("Identity", 1)
      .Input<std::string>("x", {1}, {"s"})
      .Output<std::string>("y", {1}, {"s"})
      .Run();
  OpTester("Identity", 13).Input<int8_t>("x", {0}, {}).Output<int8_t>("y", {0}, {}).Run();
}

}  // namespace ort::test
