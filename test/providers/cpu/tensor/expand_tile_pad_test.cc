#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Expand broadcasts in both directions", "[tensor][Expand]") {
  // np.broadcast_to([[1], [2]], (2, 2, 3))
  OpTester("Expand", 13)
      .Input<int32_t>("x", {2, 1}, {1, 2})
      .Input<int64_t>("shape", {3}, {2, 1, 3})
      .Output<int32_t>("y", {2, 2, 3}, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2})
      .Run();
  OpTester("Expand", 8)
      .Input<float>("x", {1, 3}, {1, 2, 3})
      .Input<int64_t>("shape", {1}, {1})
      .Output<float>("y", {1, 3}, {1, 2, 3})
      .Run();
  OpTester("Expand", 13)
      .Input<std::string>("x", {1}, {"s"})
      .Input<int64_t>("shape", {2}, {2, 2})
      .Output<std::string>("y", {2, 2}, {"s", "s", "s", "s"})
      .Run();
  OpTester("Expand", 13)
      .Input<float>("x", {1, 2}, {1, 2})
      .Input<int64_t>("shape", {2}, {0, 2})
      .Output<float>("y", {0, 2}, {})
      .Run();
  OpTester("Expand", 13)
      .Input<float>("x", {2}, {1, 2})
      .Input<int64_t>("shape", {1}, {3})
      .Output<float>("y", {3}, {1, 2, 3})
      .RunExpectingError("cannot be broadcast");
}

TEST_CASE("Tile repeats every axis", "[tensor][Tile]") {
  // np.tile([[1, 2, 3], [4, 5, 6]], (2, 2))
  OpTester("Tile", 13)
      .Input<int64_t>("x", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("repeats", {2}, {2, 2})
      .Output<int64_t>("y", {4, 6},
                       {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6, 1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6})
      .Run();
  // np.tile(np.arange(6, dtype=np.uint8).reshape(2, 1, 3), (2, 3, 1))
  OpTester("Tile", 13)
      .Input<uint8_t>("x", {2, 1, 3}, {0, 1, 2, 3, 4, 5})
      .Input<int64_t>("repeats", {3}, {2, 3, 1})
      .Output<uint8_t>("y", {4, 3, 3}, {0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 3, 4, 5,
                                        0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 3, 4, 5})
      .Run();
  OpTester("Tile", 6)
      .Input<std::string>("x", {2}, {"a", "b"})
      .Input<int64_t>("repeats", {1}, {0})
      .Output<std::string>("y", {0}, {})
      .Run();
  OpTester("Tile", 6)
      .Input<std::string>("x", {2}, {"a", "b"})
      .Input<int64_t>("repeats", {1}, {2})
      .Output<std::string>("y", {4}, {"a", "b", "a", "b"})
      .Run();
  OpTester("Tile", 1)
      .Input<float>("x", {1, 2}, {1, 2})
      .Input<int64_t>("tiles", {}, {3})
      .Input<int64_t>("axis", {}, {0})
      .Output<float>("y", {3, 2}, {1, 2, 1, 2, 1, 2})
      .Run();
  OpTester("Tile", 13)
      .Input<float>("x", {2}, {1, 2})
      .Input<int64_t>("repeats", {2}, {1, 1})
      .Output<float>("y", {2}, {1, 2})
      .RunExpectingError("repeats has 2 entries");
  OpTester("Tile", 13)
      .Input<float>("x", {2}, {1, 2})
      .Input<int64_t>("repeats", {1}, {-1})
      .Output<float>("y", {2}, {1, 2})
      .RunExpectingError("negative");
}

TEST_CASE("Pad constant mode with a value and negative pads", "[tensor][Pad]") {
  const std::vector<int32_t> x = {1, 2, 3, 4, 5, 6};
  OpTester("Pad", 13)
      .Input<int32_t>("x", {2, 3}, x)
      .Input<int64_t>("pads", {4}, {1, 0, 0, 1})
      .Input<int32_t>("value", {}, {9})
      .Output<int32_t>("y", {3, 4}, {9, 9, 9, 9, 1, 2, 3, 9, 4, 5, 6, 9})
      .Run();
  OpTester("Pad", 11)
      .Input<int32_t>("x", {2, 3}, x)
      .Input<int64_t>("pads", {4}, {0, 1, 0, -2})
      .Output<int32_t>("y", {2, 2}, {0, 1, 0, 4})
      .Run();
  OpTester("Pad", 2)
      .AttrInts("pads", {0, 1, 0, 1})
      .AttrFloat("value", 1.5f)
      .Input<float>("x", {1, 2}, {1, 2})
      .Output<float>("y", {1, 4}, {1.5f, 1, 2, 1.5f})
      .Run();
  OpTester("Pad", 1)
      .AttrInts("paddings", {1, 0})
      .Input<double>("x", {1}, {2})
      .Output<double>("y", {2}, {0, 2})
      .Run();
  OpTester("Pad", 13)
      .Input<std::string>("x", {1}, {"a"})
      .Input<int64_t>("pads", {2}, {1, 1})
      .Output<std::string>("y", {3}, {"", "a", ""})
      .Run();
}

TEST_CASE("Pad reflect, edge and wrap modes", "[tensor][Pad]") {
  // Expected values from np.pad with the same widths and modes.
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  OpTester("Pad", 13)
      .AttrString("mode", "reflect")
      .Input<float>("x", {2, 3}, x)
      .ConstantInput<int64_t>("pads", {4}, {1, 2, 1, 2})
      .Output<float>("y", {4, 7}, {6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1,
                                   6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1})
      .Run();
  OpTester("Pad", 13)
      .AttrString("mode", "reflect")
      .Input<float>("x", {3}, {1, 2, 3})
      .Input<int64_t>("pads", {2}, {5, 4})
      .Output<float>("y", {12}, {2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3})
      .Run();
  OpTester("Pad", 13)
      .AttrString("mode", "edge")
      .Input<float>("x", {2, 3}, x)
      .Input<int64_t>("pads", {4}, {0, 2, 1, 1})
      .Output<float>("y", {3, 6}, {1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6, 6, 4, 4, 4, 5, 6, 6})
      .Run();
  OpTester("Pad", 19)
      .AttrString("mode", "wrap")
      .Input<float>("x", {2, 3}, x)
      .Input<int64_t>("pads", {4}, {1, 1, 0, 3})
      .Output<float>("y", {3, 7}, {6, 4, 5, 6, 4, 5, 6, 3, 1, 2, 3, 1, 2, 3, 6, 4, 5, 6, 4, 5, 6})
      .Run();
}

TEST_CASE("Pad int4 and uint4 element by element", "[tensor][Pad]") {
  // np.pad(x, ((0, 0), (1, 0)), constant_values=-1) and np.pad(x, (2, 1), mode="edge").
  OpTester("Pad", 21)
      .TensorInput("x", OpTester::MakeFourBit(DataType::kInt4, {2, 3}, {-8, 1, 2, 3, 4, 7}))
      .Input<int64_t>("pads", {4}, {0, 1, 0, 0})
      .TensorInput("value", OpTester::MakeFourBit(DataType::kInt4, {}, {-1}))
      .TensorOutput("y",
                    OpTester::MakeFourBit(DataType::kInt4, {2, 4}, {-1, -8, 1, 2, -1, 3, 4, 7}))
      .Run();
  OpTester("Pad", 21)
      .AttrString("mode", "edge")
      .TensorInput("x", OpTester::MakeFourBit(DataType::kUint4, {3}, {15, 0, 9}))
      .Input<int64_t>("pads", {2}, {2, 1})
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kUint4, {6}, {15, 15, 15, 0, 9, 9}))
      .Run();
}

TEST_CASE("Pad opset 18 pads only the given axes", "[tensor][Pad]") {
  OpTester("Pad", 18)
      .Input<float>("x", {2, 2}, {1, 2, 3, 4})
      .Input<int64_t>("pads", {2}, {1, 0})
      .Input<float>("value", {}, {7})
      .Input<int64_t>("axes", {1}, {-1})
      .Output<float>("y", {2, 3}, {7, 1, 2, 7, 3, 4})
      .Run();
  OpTester("Pad", 18)
      .Input<float>("x", {2, 2}, {1, 2, 3, 4})
      .Input<int64_t>("pads", {4}, {1, 0, 0, 0})
      .OmittedInput()
      .Input<int64_t>("axes", {1}, {0})
      .Output<float>("y", {3, 2}, {0, 0, 1, 2, 3, 4})
      .RunExpectingError("pads has 4 entries for 1 axes");
}

TEST_CASE("Pad rejects invalid pads and modes", "[tensor][Pad]") {
  OpTester("Pad", 13)
      .Input<float>("x", {2}, {1, 2})
      .Input<int64_t>("pads", {2}, {0, -3})
      .Output<float>("y", {0}, {})
      .RunExpectingError("below zero");
  OpTester("Pad", 13)
      .AttrString("mode", "edge")
      .Input<float>("x", {0}, {})
      .Input<int64_t>("pads", {2}, {1, 1})
      .Output<float>("y", {2}, {0, 0})
      .RunExpectingError("empty axis");
  OpTester("Pad", 13)
      .AttrString("mode", "wrap")
      .Input<float>("x", {1}, {1})
      .Input<int64_t>("pads", {2}, {1, 1})
      .Output<float>("y", {3}, {1, 1, 1})
      .RunExpectingError("unsupported mode");
  OpTester("Pad", 13)
      .Input<float>("x", {2}, {1, 2})
      .Input<int64_t>("pads", {1}, {1})
      .Output<float>("y", {3}, {0, 1, 2})
      .RunExpectingError("pads has 1 entries");
}

}  // namespace ort::test
