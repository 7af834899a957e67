#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

Tensor Strings(std::vector<int64_t> dims, const std::vector<std::string>& values) {
  return OpTester::MakeTensor<std::string>(std::move(dims), values);
}

// A 1-D float8 tensor holding the given codes.
Tensor Float8(DataType type, const std::vector<uint8_t>& codes) {
  return OpTester::MakeFloat8(type, {static_cast<int64_t>(codes.size())}, codes);
}

OpTester CastTo(DataType to, int64_t saturate = 1) {
  OpTester tester("Cast", 19);
  tester.AttrInt("to", static_cast<int64_t>(to)).AttrInt("saturate", saturate);
  return tester;
}

}  // namespace

TEST_CASE("Cast between numeric types truncates and wraps like numpy", "[math][Cast]") {
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kInt32))
      .Input<float>("x", {5}, {1.5f, -2.7f, 300.0f, -1.0f, std::nanf("")})
      .Output<int32_t>("y", {5}, {1, -2, 300, -1, 0})
      .Run();
  // numpy: np.array([300., -1., -129.], np.float32).astype(np.int64).astype(np.uint8)
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kUint8))
      .Input<float>("x", {3}, {300.0f, -1.0f, -129.0f})
      .Output<uint8_t>("y", {3}, {44, 255, 127})
      .Run();
  OpTester("Cast", 9)
      .AttrInt("to", static_cast<int64_t>(DataType::kInt8))
      .Input<int64_t>("x", {3}, {200, -1, 127})
      .Output<int8_t>("y", {3}, {-56, -1, 127})
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kDouble))
      .Input<int64_t>("x", {2}, {-3, 1LL << 40})
      .Output<double>("y", {2}, {-3.0, 1099511627776.0})
      .Run();
}

TEST_CASE("Cast to and from bool", "[math][Cast]") {
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kBool))
      .Input<float>("x", {4}, {0.0f, -0.0f, 0.1f, std::nanf("")})
      .Output<bool>("y", {4}, {false, false, true, true})
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kFloat16))
      .Input<bool>("x", {2}, {true, false})
      .Output<Float16>("y", {2}, {Float16(1.0f), Float16(0.0f)})
      .Run();
}

TEST_CASE("Cast to float16 and bfloat16 rounds once to nearest even", "[math][Cast]") {
  // 1 + 2^-11 + 2^-40 lies just above the midpoint of two halves: rounding through float first
  // would land on the midpoint and round down to 1.
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kFloat16))
      .Input<double>("x", {4}, {1.0 + 0x1p-11 + 0x1p-40, 0.1, 65520.0, 1e-8})
      .Output<Float16>("y", {4},
                       {Float16::FromBits(0x3c01), Float16::FromBits(11878),
                        Float16::FromBits(31744), Float16::FromBits(0)})
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kBFloat16))
      .Input<float>("x", {2}, {1.0f + 0x1p-8f + 0x1p-20f, -2.0f})
      .Output<BFloat16>("y", {2}, {BFloat16::FromBits(0x3f81), BFloat16(-2.0f)})
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kFloat))
      .Input<BFloat16>("x", {2}, {BFloat16::FromBits(0x3f81), BFloat16(-2.0f)})
      .Output<float>("y", {2}, {1.0078125f, -2.0f})
      .Run();
}

TEST_CASE("Cast numbers to strings and back", "[math][Cast]") {
  const float inf = std::numeric_limits<float>::infinity();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kString))
      .Input<float>("x", {7}, {0.1f, 1e-5f, 3.4028235e38f, -2.5f, 100.0f, std::nanf(""), -inf})
      .TensorOutput("y",
                    Strings({7}, {"0.1", "1e-05", "3.4028235e+38", "-2.5", "100", "NaN", "-INF"}))
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kString))
      .Input<int64_t>("x", {2}, {-42, 9000000000LL})
      .TensorOutput("y", Strings({2}, {"-42", "9000000000"}))
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kString))
      .Input<Float16>("x", {2}, {Float16(0.1f), Float16(-1.5f)})
      .TensorOutput("y", Strings({2}, {"0.1", "-1.5"}))
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kFloat))
      .TensorInput("x", Strings({6}, {"0.5", " -1e3 ", "NaN", "INF", "+INF", "-inf"}))
      .Output<float>("y", {6}, {0.5f, -1000.0f, std::nanf(""), inf, inf, -inf})
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kInt64))
      .TensorInput("x", Strings({4}, {"12", "-7", "+3", "2.9"}))
      .Output<int64_t>("y", {4}, {12, -7, 3, 2})
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kBool))
      .TensorInput("x", Strings({4}, {"true", "False", "0", "2"}))
      .Output<bool>("y", {4}, {true, false, false, true})
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kFloat))
      .TensorInput("x", Strings({2}, {"1.0", "abc"}))
      .Output<float>("y", {2}, {1.0f, 0.0f})
      .RunExpectingError("cannot parse 'abc'");
}

TEST_CASE("Cast opset 1 names the type; same-type Cast is a copy", "[math][Cast]") {
  OpTester("Cast", 1)
      .AttrString("to", "INT32")
      .Input<double>("x", {2}, {2.5, -0.5})
      .Output<int32_t>("y", {2}, {2, 0})
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kFloat))
      .Input<float>("x", {2, 0}, {})
      .Output<float>("y", {2, 0}, {})
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kFloat))
      .Input<float>("x", {2}, {1.5f, 2.5f})
      .Output<float>("y", {2}, {1.5f, 2.5f})
      .Run();
  OpTester("Cast", 13)
      .AttrInt("to", static_cast<int64_t>(DataType::kComplex64))
      .Input<float>("x", {1}, {1.0f})
      .Output<float>("y", {1}, {1.0f})
      .RunExpectingError("cannot cast to");
}

TEST_CASE("CastLike takes the type of its second input", "[math][CastLike]") {
  OpTester("CastLike", 15)
      .Input<float>("x", {3}, {1.9f, -1.9f, 0.0f})
      .Input<int16_t>("like", {1}, {0})
      .Output<int16_t>("y", {3}, {1, -1, 0})
      .Run();
  OpTester("CastLike", 15)
      .Input<int32_t>("x", {2}, {7, -8})
      .TensorInput("like", Strings({0}, {}))
      .TensorOutput("y", Strings({2}, {"7", "-8"}))
      .Run();
}

// Codes derived by hand from the formats (sign, exponent, mantissa; bias 7 for E4M3FN, 8 for
// E4M3FNUZ, 15 for E5M2, 16 for E5M2FNUZ), e.g. 1.0 in E4M3FN is 0 0111 000 = 0x38.
TEST_CASE("Cast to float8 rounds to nearest even and saturates", "[math][Cast]") {
  const float inf = std::numeric_limits<float>::infinity();
  // 1.0625 and 1.1875 are halfway between neighbours: the even mantissa wins.
  CastTo(DataType::kFloat8E4M3FN)
      .Input<float>("x", {9},
                    {1.0f, -2.0f, 448.0f, 0.001953125f, 1.0625f, 1.1875f, 1000.0f, inf, -inf})
      .TensorOutput("y", Float8(DataType::kFloat8E4M3FN,
                                {0x38, 0xC0, 0x7E, 0x01, 0x38, 0x3A, 0x7E, 0x7E, 0xFE}))
      .Run();
  // Without saturation: 460 is within half a step (32) of 448; 1000 and infinity become NaN.
  CastTo(DataType::kFloat8E4M3FN, 0)
      .Input<float>("x", {4}, {460.0f, 1000.0f, inf, std::nanf("")})
      .TensorOutput("y", Float8(DataType::kFloat8E4M3FN, {0x7E, 0x7F, 0x7F, 0x7F}))
      .Run();
  CastTo(DataType::kFloat8E5M2)
      .Input<float>("x", {4}, {1.0f, 0.5f, 57344.0f, 1e5f})
      .TensorOutput("y", Float8(DataType::kFloat8E5M2, {0x3C, 0x38, 0x7B, 0x7B}))
      .Run();
  CastTo(DataType::kFloat8E5M2, 0)
      .Input<float>("x", {3}, {1e5f, -inf, -1.0f})
      .TensorOutput("y", Float8(DataType::kFloat8E5M2, {0x7C, 0xFC, 0xBC}))
      .Run();
  // FNUZ: no negative zero, NaN is 0x80.
  CastTo(DataType::kFloat8E4M3FNUZ)
      .Input<float>("x", {5}, {1.0f, -0.0f, 240.0f, inf, std::nanf("")})
      .TensorOutput("y", Float8(DataType::kFloat8E4M3FNUZ, {0x40, 0x00, 0x7F, 0x7F, 0x80}))
      .Run();
  CastTo(DataType::kFloat8E5M2FNUZ)
      .Input<float>("x", {2}, {1.0f, 57344.0f})
      .TensorOutput("y", Float8(DataType::kFloat8E5M2FNUZ, {0x40, 0x7F}))
      .Run();
  // Other sources go through float: float16 1.5 and int32 -3.
  CastTo(DataType::kFloat8E4M3FN)
      .Input<Float16>("x", {1}, {Float16(1.5f)})
      .TensorOutput("y", Float8(DataType::kFloat8E4M3FN, {0x3C}))
      .Run();
  CastTo(DataType::kFloat8E4M3FN)
      .Input<int32_t>("x", {1}, {-3})
      .TensorOutput("y", Float8(DataType::kFloat8E4M3FN, {0xC4}))
      .Run();
}

TEST_CASE("Cast from float8 decodes normal and subnormal values", "[math][Cast]") {
  CastTo(DataType::kFloat)
      .TensorInput("x", Float8(DataType::kFloat8E4M3FN, {0x38, 0xC0, 0x01, 0x7E}))
      .Output<float>("y", {4}, {1.0f, -2.0f, 0.001953125f, 448.0f})
      .Run();
  // E5M2 subnormal 0x01 is 2^-16.
  CastTo(DataType::kFloat)
      .TensorInput("x", Float8(DataType::kFloat8E5M2, {0x3C, 0x7B, 0x01}))
      .Output<float>("y", {3}, {1.0f, 57344.0f, 1.52587890625e-05f})
      .Run();
  // E4M3FNUZ 0x4C = 1.5 * 2 and 0xCD = -1.625 * 2 truncate toward zero.
  CastTo(DataType::kInt32)
      .TensorInput("x", Float8(DataType::kFloat8E4M3FNUZ, {0x4C, 0xCD}))
      .Output<int32_t>("y", {2}, {3, -3})
      .Run();
  CastTo(DataType::kFloat8E5M2)
      .TensorInput("x", Float8(DataType::kFloat8E4M3FN, {0x38, 0x7E}))
      .TensorOutput("y", Float8(DataType::kFloat8E5M2, {0x3C, 0x5F}))
      .Run();
}

// Expected values from numpy: v = np.rint(x).astype(np.int64) & 0xF, sign-extended for int4
// ((v ^ 8) - 8): round half to even, then the low 4 bits. The odd counts leave a padding nibble.
TEST_CASE("Cast to int4 and uint4 rounds half to even and keeps the low 4 bits", "[math][Cast]") {
  OpTester("Cast", 21)
      .AttrInt("to", static_cast<int64_t>(DataType::kInt4))
      .Input<float>(
          "x", {11},
          {-9.6f, -8.5f, -7.5f, -0.5f, 0.5f, 1.5f, 2.5f, 6.6f, 7.5f, 14.5f, std::nanf("")})
      .TensorOutput(
          "y", OpTester::MakeFourBit(DataType::kInt4, {11}, {6, -8, -8, 0, 0, 2, 2, 7, -8, -2, 0}))
      .Run();
  OpTester("Cast", 21)
      .AttrInt("to", static_cast<int64_t>(DataType::kUint4))
      .Input<double>("x", {6}, {-3, 0.5, 1.5, 14.5, 15.5, 100})
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kUint4, {6}, {13, 0, 2, 14, 0, 4}))
      .Run();
  OpTester("Cast", 21)
      .AttrInt("to", static_cast<int64_t>(DataType::kInt4))
      .Input<int64_t>("x", {5}, {-100, -8, 7, 8, 100})
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kInt4, {5}, {-4, -8, 7, -8, 4}))
      .Run();
  OpTester("Cast", 21)
      .AttrInt("to", static_cast<int64_t>(DataType::kUint4))
      .TensorInput("x", OpTester::MakeFourBit(DataType::kInt4, {3}, {-8, -1, 3}))
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kUint4, {3}, {8, 15, 3}))
      .Run();
  OpTester("Cast", 21)
      .AttrInt("to", static_cast<int64_t>(DataType::kInt4))
      .Input<std::string>("x", {3}, {"6.5", "-20", "3"})
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kInt4, {3}, {6, -4, 3}))
      .Run();
}

TEST_CASE("Cast from int4 and uint4 is exact", "[math][Cast]") {
  OpTester("Cast", 21)
      .AttrInt("to", static_cast<int64_t>(DataType::kFloat))
      .TensorInput("x", OpTester::MakeFourBit(DataType::kInt4, {5}, {-8, -1, 0, 7, 3}))
      .Output<float>("y", {5}, {-8, -1, 0, 7, 3})
      .Run();
  OpTester("Cast", 21)
      .AttrInt("to", static_cast<int64_t>(DataType::kInt64))
      .TensorInput("x", OpTester::MakeFourBit(DataType::kUint4, {2, 2}, {0, 15, 8, 9}))
      .Output<int64_t>("y", {2, 2}, {0, 15, 8, 9})
      .Run();
  OpTester("Cast", 21)
      .AttrInt("to", static_cast<int64_t>(DataType::kString))
      .TensorInput("x", OpTester::MakeFourBit(DataType::kInt4, {2}, {-8, 7}))
      .TensorOutput("y", Strings({2}, {"-8", "7"}))
      .Run();
  OpTester("CastLike", 21)
      .TensorInput("x", OpTester::MakeFourBit(DataType::kUint4, {3}, {1, 14, 15}))
      .Input<Float16>("like", {1}, {Float16(0.0f)})
      .Output<Float16>("y", {3}, {Float16(1.0f), Float16(14.0f), Float16(15.0f)})
      .Run();
}

}  // namespace ort::test
