#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Reshape copies 0 dimensions and infers -1", "[tensor][Reshape]") {
  const std::vector<float> data = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  OpTester("Reshape", 14)
      .Input<float>("data", {2, 3, 2}, data)
      .Input<int64_t>("shape", {3}, {0, -1, 3})
      .Output<float>("reshaped", {2, 2, 3}, data)
      .Run();
  OpTester("Reshape", 13)
      .Input<float>("data", {2, 3, 2}, data)
      .ConstantInput<int64_t>("shape", {2}, {-1, 4})
      .Output<float>("reshaped", {3, 4}, data)
      .Run();
}

TEST_CASE("Reshape with allowzero keeps literal zeros", "[tensor][Reshape]") {
  OpTester("Reshape", 14)
      .AttrInt("allowzero", 1)
      .Input<float>("data", {0, 3}, {})
      .Input<int64_t>("shape", {2}, {3, 0})
      .Output<float>("reshaped", {3, 0}, {})
      .Run();
  // Without allowzero the 0 copies the input dimension.
  OpTester("Reshape", 14)
      .Input<float>("data", {0, 3}, {})
      .Input<int64_t>("shape", {2}, {0, 3})
      .Output<float>("reshaped", {0, 3}, {})
      .Run();
}

TEST_CASE("Reshape opset 1 reads the shape attribute", "[tensor][Reshape]") {
  OpTester("Reshape", 1)
      .AttrInts("shape", {3, 2})
      .Input<float>("data", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Output<float>("reshaped", {3, 2}, {1, 2, 3, 4, 5, 6})
      .Run();
}

TEST_CASE("Reshape handles strings and scalars", "[tensor][Reshape]") {
  OpTester("Reshape", 14)
      .Input<std::string>("data", {1, 2}, {"a", "b"})
      .Input<int64_t>("shape", {1}, {2})
      .Output<std::string>("reshaped", {2}, {"a", "b"})
      .Run();
  OpTester("Reshape", 14)
      .Input<int32_t>("data", {1, 1}, {7})
      .Input<int64_t>("shape", {0}, {})
      .Output<int32_t>("reshaped", {}, {7})
      .Run();
}

TEST_CASE("Reshape rejects invalid shapes", "[tensor][Reshape]") {
  OpTester("Reshape", 14)
      .Input<float>("data", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("shape", {2}, {-1, -1})
      .Output<float>("reshaped", {6}, {1, 2, 3, 4, 5, 6})
      .RunExpectingError("more than one -1");
  OpTester("Reshape", 14)
      .Input<float>("data", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("shape", {1}, {4})
      .Output<float>("reshaped", {4}, {1, 2, 3, 4})
      .RunExpectingError("cannot reshape");
  OpTester("Reshape", 14)
      .Input<float>("data", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("shape", {2}, {-1, 4})
      .Output<float>("reshaped", {6}, {1, 2, 3, 4, 5, 6})
      .RunExpectingError("cannot infer");
  OpTester("Reshape", 14)
      .Input<float>("data", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("shape", {3}, {2, 3, 0})
      .Output<float>("reshaped", {6}, {1, 2, 3, 4, 5, 6})
      .RunExpectingError("has no dimension 2");
  OpTester("Reshape", 14)
      .Input<float>("data", {2}, {1, 2})
      .Input<int64_t>("shape", {2}, {-2, -1})
      .Output<float>("reshaped", {2}, {1, 2})
      .RunExpectingError("invalid");
}

TEST_CASE("Flatten splits the shape at the axis", "[tensor][Flatten]") {
  const std::vector<float> data = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                   12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23};
  OpTester("Flatten", 13)
      .Input<float>("x", {2, 3, 4}, data)
      .Output<float>("y", {2, 12}, data)
      .Run();
  OpTester("Flatten", 13)
      .AttrInt("axis", 0)
      .Input<float>("x", {2, 3, 4}, data)
      .Output<float>("y", {1, 24}, data)
      .Run();
  OpTester("Flatten", 13)
      .AttrInt("axis", 3)
      .Input<float>("x", {2, 3, 4}, data)
      .Output<float>("y", {24, 1}, data)
      .Run();
  OpTester("Flatten", 13)
      .AttrInt("axis", -1)
      .Input<float>("x", {2, 3, 4}, data)
      .Output<float>("y", {6, 4}, data)
      .Run();
  OpTester("Flatten", 9).Input<bool>("x", {2, 0, 2}, {}).Output<bool>("y", {2, 0}, {}).Run();
  OpTester("Flatten", 13)
      .AttrInt("axis", 4)
      .Input<float>("x", {2, 3, 4}, data)
      .Output<float>("y", {24, 1}, data)
      .RunExpectingError("out of range");
}

TEST_CASE("Reshape, Flatten and Identity keep packed 4-bit data", "[tensor][Reshape]") {
  const std::vector<int> values = {-8, 7, 3, -2, 0, 1};
  OpTester("Reshape", 21)
      .TensorInput("data", OpTester::MakeFourBit(DataType::kInt4, {2, 3}, values))
      .Input<int64_t>("shape", {2}, {3, -1})
      .TensorOutput("reshaped", OpTester::MakeFourBit(DataType::kInt4, {3, 2}, values))
      .Run();
  OpTester("Flatten", 21)
      .TensorInput("x", OpTester::MakeFourBit(DataType::kUint4, {1, 3, 1}, {15, 4, 9}))
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kUint4, {1, 3}, {15, 4, 9}))
      .Run();
  OpTester("Identity", 21)
      .TensorInput("x", OpTester::MakeFourBit(DataType::kInt4, {5}, {-8, -7, 6, 7, 0}))
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kInt4, {5}, {-8, -7, 6, 7, 0}))
      .Run();
}

}  // namespace ort::test
