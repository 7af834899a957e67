#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values from numpy: clip(rint(x / scale) + zero_point) and (x - zero_point) * scale.
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX9 = {-3.0f, -1.25f, 0.0f, 0.25f, 0.75f, 1.25f, 2.5f, 300.0f, -300.0f};
const std::vector<float> kX2x3x2 = {3.0f,   -1.75f, 0.875f, 2.25f, 1.75f,   3.375f,
                                    2.875f, 3.375f, -3.75f, -0.5f, -0.125f, -3.5f};
const std::vector<int8_t> kY2x3x2 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
const std::vector<float> kX8 = {1, 2, 3, 4, 5, 6, 7, 8};

}  // namespace

TEST_CASE("QuantizeLinear rounds half to even and saturates", "[quantization][QuantizeLinear]") {
  OpTester("QuantizeLinear", 13)
      .Input<float>("x", {9}, kX9)
      .Input<float>("scale", {}, {0.5f})
      .Input<uint8_t>("zp", {}, {128})
      .Output<uint8_t>("y", {9}, {122, 126, 128, 128, 130, 130, 133, 255, 0})
      .Run();
  OpTester("QuantizeLinear", 10)
      .Input<float>("x", {9}, kX9)
      .Input<float>("scale", {}, {0.5f})
      .Input<int8_t>("zp", {}, {-1})
      .Output<int8_t>("y", {9}, {-7, -3, -1, -1, 1, 1, 4, 127, -128})
      .Run();
  OpTester("QuantizeLinear", 13)
      .Input<float>("x", {9}, kX9)
      .Input<float>("scale", {}, {2.0f})
      .Output<uint8_t>("y", {9}, {0, 0, 0, 0, 0, 1, 1, 150, 0})
      .Run();
  OpTester("QuantizeLinear", 13)
      .Input<int32_t>("x", {4}, {-7, 5, 11, 1000})
      .Input<float>("scale", {}, {2.0f})
      .Input<int8_t>("zp", {}, {3})
      .Output<int8_t>("y", {4}, {-1, 5, 9, 127})
      .Run();
}

TEST_CASE("QuantizeLinear per axis", "[quantization][QuantizeLinear]") {
  OpTester("QuantizeLinear", 13)
      .AttrInt("axis", 1)
      .Input<float>("x", {2, 3, 2}, kX2x3x2)
      .Input<float>("scale", {3}, {0.5f, 0.25f, 1.0f})
      .Input<int8_t>("zp", {3}, {0, 10, -5})
      .Output<int8_t>("y", {2, 3, 2}, {6, -4, 14, 19, -3, -2, 6, 7, -5, 8, -5, -9})
      .Run();
  OpTester("QuantizeLinear", 13)
      .AttrInt("axis", -1)
      .Input<float>("x", {2, 3, 2}, kX2x3x2)
      .Input<float>("scale", {2}, {0.5f, 0.25f})
      .Input<int8_t>("zp", {2}, {0, 10})
      .Output<int8_t>("y", {2, 3, 2}, {6, 3, 2, 19, 4, 24, 6, 24, -8, 8, 0, -4})
      .Run();
  OpTester("QuantizeLinear", 10)
      .Input<float>("x", {2, 3, 2}, kX2x3x2)
      .Input<float>("scale", {3}, {0.5f, 0.25f, 1.0f})
      .Input<int8_t>("zp", {3}, {0, 10, -5})
      .Output<int8_t>("y", {2, 3, 2}, kY2x3x2)
      .RunExpectingError("must be a scalar");
  OpTester("QuantizeLinear", 13)
      .AttrInt("axis", 0)
      .Input<float>("x", {2, 3, 2}, kX2x3x2)
      .Input<float>("scale", {3}, {0.5f, 0.25f, 1.0f})
      .Input<int8_t>("zp", {3}, {0, 10, -5})
      .Output<int8_t>("y", {2, 3, 2}, kY2x3x2)
      .RunExpectingError("has 3 values");
}

TEST_CASE("QuantizeLinear opset 19 takes float16", "[quantization][QuantizeLinear]") {
  OpTester("QuantizeLinear", 19)
      .Input<Float16>("x", {3}, {Float16(1.0f), Float16(-2.5f), Float16(3.25f)})
      .Input<Float16>("scale", {}, {Float16(0.5f)})
      .Input<uint8_t>("zp", {}, {5})
      .Output<uint8_t>("y", {3}, {7, 0, 11})
      .Run();
}

TEST_CASE("DequantizeLinear per tensor and per axis", "[quantization][DequantizeLinear]") {
  OpTester("DequantizeLinear", 13)
      .Input<uint8_t>("x", {4}, {0, 3, 128, 255})
      .Input<float>("scale", {}, {0.5f})
      .Input<uint8_t>("zp", {}, {128})
      .Output<float>("y", {4}, {-64.0f, -62.5f, 0.0f, 63.5f})
      .Run();
  OpTester("DequantizeLinear", 10)
      .Input<int32_t>("x", {2}, {-2147483648, 7})
      .Input<float>("scale", {}, {2.0f})
      .Output<float>("y", {2}, {-4.2949673e+09f, 14.0f})
      .Run();
  OpTester("DequantizeLinear", 13)
      .AttrInt("axis", 0)
      .Input<int8_t>("x", {2, 2}, {-128, 0, 5, 127})
      .Input<float>("scale", {2}, {0.5f, 2.0f})
      .Input<int8_t>("zp", {2}, {1, -1})
      .Output<float>("y", {2, 2}, {-64.5f, -0.5f, 12.0f, 256.0f})
      .Run();
  OpTester("DequantizeLinear", 19)
      .Input<uint8_t>("x", {4}, {0, 3, 128, 255})
      .Input<Float16>("scale", {}, {Float16(0.25f)})
      .Output<Float16>("y", {4}, {Float16(0.0f), Float16(0.75f), Float16(32.0f), Float16(63.75f)})
      .Run();
  OpTester("DequantizeLinear", 13)
      .Input<uint8_t>("x", {4}, {0, 3, 128, 255})
      .Input<float>("scale", {}, {0.5f})
      .Input<int8_t>("zp", {}, {1})
      .Output<float>("y", {4}, {0.0f, 0.0f, 0.0f, 0.0f})
      .RunExpectingError("type of x");
}

TEST_CASE("QuantizeLinear and DequantizeLinear 21 per block", "[quantization][QuantizeLinear]") {
  // Blocks of 2 along axis 1: row 0 scales 1 and 2, row 1 scales 0.5 and 4 (3 / 2 and 7 / 4
  // round half to even and to nearest).
  OpTester("QuantizeLinear", 21)
      .AttrInt("axis", 1)
      .AttrInt("block_size", 2)
      .Input<float>("x", {2, 4}, kX8)
      .Input<float>("scale", {2, 2}, {1, 2, 0.5f, 4})
      .Output<uint8_t>("y", {2, 4}, {1, 2, 2, 2, 10, 12, 2, 2})
      .Run();
  // Blocks of 2 along axis 0: the scale also changes along the inner axis.
  OpTester("QuantizeLinear", 21)
      .AttrInt("axis", 0)
      .AttrInt("block_size", 2)
      .Input<float>("x", {4, 2}, kX8)
      .Input<float>("scale", {2, 2}, {1, 2, 4, 8})
      .Output<uint8_t>("y", {4, 2}, {1, 1, 3, 2, 1, 1, 2, 1})
      .Run();
  OpTester("DequantizeLinear", 21)
      .AttrInt("axis", 1)
      .AttrInt("block_size", 2)
      .Input<int8_t>("x", {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})
      .Input<float>("scale", {2, 2}, {1, 2, 0.5f, 4})
      .Output<float>("y", {2, 4}, {1, 2, 6, 8, 2.5f, 3, 28, 32})
      .Run();
  OpTester("QuantizeLinear", 21)
      .AttrInt("axis", 1)
      .AttrInt("block_size", 2)
      .Input<float>("x", {2, 4}, kX8)
      .Input<float>("scale", {2, 3}, {1, 1, 1, 1, 1, 1})
      .Output<uint8_t>("y", {2, 4}, {0, 0, 0, 0, 0, 0, 0, 0})
      .RunExpectingError("does not give blocks of 2");
}

TEST_CASE("QuantizeLinear and DequantizeLinear 21 with 16-bit types",
          "[quantization][QuantizeLinear]") {
  // output_dtype 5 (int16) without a zero point; 300.5 rounds to the even 300.
  OpTester("QuantizeLinear", 21)
      .AttrInt("output_dtype", 5)
      .Input<float>("x", {3}, {-70000.0f, 1.5f, 300.5f})
      .Input<float>("scale", {}, {1.0f})
      .Output<int16_t>("y", {3}, {-32768, 2, 300})
      .Run();
  // (65535 - 32768) * 0.5 and (0 - 32768) * 0.5
  OpTester("DequantizeLinear", 21)
      .Input<uint16_t>("x", {2}, {65535, 0})
      .Input<float>("scale", {}, {0.5f})
      .Input<uint16_t>("zp", {}, {32768})
      .Output<float>("y", {2}, {16383.5f, -16384.0f})
      .Run();
}

TEST_CASE("QuantizeLinear and DequantizeLinear 21 with int4 and uint4",
          "[quantization][QuantizeLinear]") {
  // x / 0.5 = {-10, -2, 0, 0.5, 1.5, 6, 20}, rounded half to even, + 8, saturated to [0, 15].
  OpTester("QuantizeLinear", 21)
      .Input<float>("x", {7}, {-5, -1, 0, 0.25f, 0.75f, 3, 10})
      .Input<float>("scale", {}, {0.5f})
      .TensorInput("zp", OpTester::MakeFourBit(DataType::kUint4, {}, {8}))
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kUint4, {7}, {0, 6, 8, 8, 10, 14, 15}))
      .Run();
  // output_dtype 22 (int4) without a zero point: -9 and 4.5 saturate and round to -8 and 4.
  OpTester("QuantizeLinear", 21)
      .AttrInt("output_dtype", 22)
      .Input<float>("x", {5}, {-9.2f, -1, 0.74f, 3.5f, 4.5f})
      .Input<float>("scale", {}, {1.0f})
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kInt4, {5}, {-8, -1, 1, 4, 4}))
      .Run();
  // Blocks of 2 along rows of 3, so a row's elements straddle packed bytes:
  //   row 0: (-8 - 1) * 0.5, (7 - 1) * 0.5, (-1 - -1) * 2
  //   row 1: (3 - 0) * 1, (-4 - 0) * 1, (5 - 2) * 0.25
  OpTester("DequantizeLinear", 21)
      .AttrInt("axis", 1)
      .AttrInt("block_size", 2)
      .TensorInput("x", OpTester::MakeFourBit(DataType::kInt4, {2, 3}, {-8, 7, -1, 3, -4, 5}))
      .Input<float>("scale", {2, 2}, {0.5f, 2, 1, 0.25f})
      .TensorInput("zp", OpTester::MakeFourBit(DataType::kInt4, {2, 2}, {1, -1, 0, 2}))
      .Output<float>("y", {2, 3}, {-4.5f, 3, 0, 3, -4, 0.75f})
      .Run();
  OpTester("DequantizeLinear", 21)
      .TensorInput("x", OpTester::MakeFourBit(DataType::kUint4, {3}, {0, 15, 8}))
      .Input<float>("scale", {}, {2.0f})
      .Output<float>("y", {3}, {0, 30, 16})
      .Run();
  OpTester("DequantizeLinear", 21)
      .TensorInput("x", OpTester::MakeFourBit(DataType::kUint4, {1}, {3}))
      .Input<float>("scale", {}, {2.0f})
      .TensorInput("zp", OpTester::MakeFourBit(DataType::kInt4, {}, {1}))
      .Output<float>("y", {1}, {4})
      .RunExpectingError("x_zero_point must have the type of x");
}

TEST_CASE("QuantizeLinear and DequantizeLinear 19 with float8", "[quantization][QuantizeLinear]") {
  // E4M3FN codes by hand: 0.5 = 0 0110 000, 1.5 = 0 0111 100, 500 saturates to 448 = 0x7E.
  OpTester("QuantizeLinear", 19)
      .Input<float>("x", {3}, {1.0f, 3.0f, 1000.0f})
      .Input<float>("scale", {}, {2.0f})
      .TensorInput("zp", OpTester::MakeFloat8(DataType::kFloat8E4M3FN, {}, {0x00}))
      .TensorOutput("y", OpTester::MakeFloat8(DataType::kFloat8E4M3FN, {3}, {0x30, 0x3C, 0x7E}))
      .Run();
  // 0x38 = 1 and 0xC0 = -2, times 3.
  OpTester("DequantizeLinear", 19)
      .TensorInput("x", OpTester::MakeFloat8(DataType::kFloat8E4M3FN, {2}, {0x38, 0xC0}))
      .Input<float>("scale", {}, {3.0f})
      .Output<float>("y", {2}, {3.0f, -6.0f})
      .Run();
}

TEST_CASE(
    "QuantizeLinear 23 divides in the given precision; DequantizeLinear 23 casts to output_dtype",
    "[quantization][QuantizeLinear]") {
  // numpy: rint(x / 0.37) in float32 is [2221, -3733, -7443, 270]; with both operands and the
  // quotient rounded to float16 it is [2220, -3732, -7440, 270].
  const std::vector<float> x = {821.75f, -1381.25f, -2754.0f, 100.0f};
  OpTester("QuantizeLinear", 23)
      .AttrInt("precision", static_cast<int64_t>(DataType::kFloat16))
      .Input<float>("x", {4}, x)
      .Input<float>("scale", {}, {0.37f})
      .Input<int16_t>("zero_point", {}, {0})
      .Output<int16_t>("y", {4}, {2220, -3732, -7440, 270})
      .Run();
  OpTester("QuantizeLinear", 23)
      .Input<float>("x", {4}, x)
      .Input<float>("scale", {}, {0.37f})
      .Input<int16_t>("zero_point", {}, {0})
      .Output<int16_t>("y", {4}, {2221, -3733, -7443, 270})
      .Run();
  OpTester("DequantizeLinear", 23)
      .AttrInt("output_dtype", static_cast<int64_t>(DataType::kFloat16))
      .Input<int8_t>("x", {3}, {-2, 0, 3})
      .Input<float>("scale", {}, {0.5f})
      .Output<Float16>("y", {3}, {Float16(-1.0f), Float16(0.0f), Float16(1.5f)})
      .Run();
}

}  // namespace ort::test
