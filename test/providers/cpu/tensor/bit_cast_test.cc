#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

// IEEE-754 encodings: 1.0f = 0x3F800000, -2.0f = 0xC0000000, 0.5f = 0x3F000000,
// float16 1.0 = 0x3C00.
TEST_CASE("BitCast reinterprets bits of the same width", "[tensor][BitCast]") {
  OpTester("BitCast", 26)
      .AttrInt("to", static_cast<int64_t>(DataType::kInt32))
      .Input<float>("x", {3}, {1.0f, -2.0f, 0.5f})
      .Output<int32_t>("y", {3}, {1065353216, -1073741824, 1056964608})
      .Run();
  OpTester("BitCast", 26)
      .AttrInt("to", static_cast<int64_t>(DataType::kInt16))
      .Input<Float16>("x", {1}, {Float16(1.0f)})
      .Output<int16_t>("y", {1}, {15360})
      .Run();
  OpTester("BitCast", 26)
      .AttrInt("to", static_cast<int64_t>(DataType::kUint8))
      .Input<int8_t>("x", {2}, {-1, 5})
      .Output<uint8_t>("y", {2}, {255, 5})
      .Run();
  OpTester("BitCast", 26)
      .AttrInt("to", static_cast<int64_t>(DataType::kBool))
      .Input<uint8_t>("x", {3}, {0, 1, 7})
      .Output<bool>("y", {3}, {false, true, true})
      .Run();
  OpTester("BitCast", 26)
      .AttrInt("to", static_cast<int64_t>(DataType::kUint4))
      .TensorInput("x", OpTester::MakeFourBit(DataType::kInt4, {3}, {-1, -8, 7}))
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kUint4, {3}, {15, 8, 7}))
      .Run();
}

TEST_CASE("BitCast between different widths is an error", "[tensor][BitCast]") {
  OpTester("BitCast", 26)
      .AttrInt("to", static_cast<int64_t>(DataType::kInt64))
      .Input<float>("x", {1}, {1.0f})
      .Output<int64_t>("y", {1}, {0})
      .RunExpectingError("cannot bit-cast float[1] (32 bits) to int64 (64 bits)");
}

}  // namespace ort::test
