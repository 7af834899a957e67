#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Pow broadcasts and mixes base and exponent types", "[math][Pow]") {
  // numpy.power of the same values.
  OpTester("Pow", 15)
      .Input<float>("x", {2, 3}, {1.5f, 2.0f, -3.0f, 0.5f, 4.0f, 2.0f})
      .Input<float>("y", {3}, {2.0f, 0.5f, 3.0f})
      .Output<float>("z", {2, 3}, {2.25f, 1.41421354f, -27.0f, 0.25f, 2.0f, 8.0f})
      .Run();
  OpTester("Pow", 7)
      .Input<double>("x", {3}, {2.0, -2.0, 0.0})
      .Input<double>("y", {}, {2.0})
      .Output<double>("z", {3}, {4.0, 4.0, 0.0})
      .Run();
  OpTester("Pow", 15)
      .Input<int32_t>("x", {3}, {2, 3, -4})
      .Input<float>("y", {3}, {0.5f, 2.0f, 3.0f})
      .Output<int32_t>("z", {3}, {1, 9, -64})
      .Run();
  OpTester("Pow", 15)
      .Input<float>("x", {3}, {2.0f, -3.0f, 4.0f})
      .Input<int64_t>("y", {3}, {3, 2, -1})
      .Output<float>("z", {3}, {8.0f, 9.0f, 0.25f})
      .Run();
  // One-value exponents 2 and 3 (float or integer) take the product paths: numpy.power values.
  OpTester("Pow", 15)
      .Input<float>("x", {2, 2}, {1.5f, -2.0f, 0.1f, -0.0f})
      .Input<float>("y", {}, {3.0f})
      .Output<float>("z", {2, 2}, {3.375f, -8.0f, 0.001f, -0.0f})
      .Run();
  OpTester("Pow", 15)
      .Input<float>("x", {3}, {1.5f, -2.0f, 3.0f})
      .Input<int64_t>("y", {1}, {3})
      .Output<float>("z", {3}, {3.375f, -8.0f, 27.0f})
      .Run();
  // Integer powers are exact; negative exponents truncate 1 / x^n toward zero.
  OpTester("Pow", 15)
      .Input<int64_t>("x", {6}, {3, -2, 1, -1, 5, 0})
      .Input<int64_t>("y", {6}, {39, 5, -3, -3, -1, 0})
      .Output<int64_t>("z", {6}, {4052555153018976267LL, -32, 1, -1, 0, 1})
      .Run();
  OpTester("Pow", 15)
      .Input<int32_t>("x", {2}, {2, 3})
      .Input<uint8_t>("y", {2}, {10, 0})
      .Output<int32_t>("z", {2}, {1024, 1})
      .Run();
}

TEST_CASE("Pow before opset 7 uses the legacy broadcast rule", "[math][Pow]") {
  OpTester("Pow", 6)
      .AttrInt("broadcast", 1)
      .Input<float>("x", {2, 2}, {1, 2, 3, 4})
      .Input<float>("y", {2}, {2, 1})
      .Output<float>("z", {2, 2}, {1, 2, 9, 4})
      .Run();
  OpTester("Pow", 6)
      .Input<float>("x", {2, 2}, {1, 2, 3, 4})
      .Input<float>("y", {2}, {2, 1})
      .Output<float>("z", {2, 2}, {1, 2, 9, 4})
      .RunExpectingError("broadcast");
}

TEST_CASE("Pow squares a scalar exponent of 2 and keeps a higher-rank exponent's shape",
          "[math][Pow]") {
  OpTester("Pow", 15)
      .Input<float>("x", {3}, {-1.5f, 0.0f, 3.0f})
      .ConstantInput<float>("y", {}, {2.0f})
      .Output<float>("z", {3}, {2.25f, 0.0f, 9.0f})
      .Run();
  OpTester("Pow", 15)
      .Input<float>("x", {}, {3.0f})
      .Input<float>("y", {1, 1}, {2.0f})
      .Output<float>("z", {1, 1}, {9.0f})
      .Run();
}

TEST_CASE("Mod: integer sign semantics for fmod 0 and 1", "[math][Mod]") {
  // numpy.mod and numpy.fmod of the same values.
  OpTester("Mod", 13)
      .Input<int32_t>("a", {5}, {-4, 7, 5, -9, 4})
      .Input<int32_t>("b", {5}, {3, -3, -2, -2, -3})
      .Output<int32_t>("c", {5}, {2, -2, -1, -1, -2})
      .Run();
  OpTester("Mod", 13)
      .AttrInt("fmod", 1)
      .Input<int32_t>("a", {5}, {-4, 7, 5, -9, 4})
      .Input<int32_t>("b", {5}, {3, -3, -2, -2, -3})
      .Output<int32_t>("c", {5}, {-1, 1, 1, -1, 1})
      .Run();
  OpTester("Mod", 13)
      .AttrInt("fmod", 1)
      .Input<float>("a", {3}, {-4.5f, 7.25f, 5.0f})
      .Input<float>("b", {3}, {2.0f, -3.0f, -2.5f})
      .Output<float>("c", {3}, {-0.5f, 1.25f, 0.0f})
      .Run();
  OpTester("Mod", 10)
      .Input<uint8_t>("a", {2, 2}, {7, 200, 9, 255})
      .Input<uint8_t>("b", {2}, {4, 7})
      .Output<uint8_t>("c", {2, 2}, {3, 4, 1, 3})
      .Run();
  OpTester("Mod", 13)
      .Input<int8_t>("a", {1}, {-128})
      .Input<int8_t>("b", {1}, {-1})
      .Output<int8_t>("c", {1}, {0})
      .Run();
}

TEST_CASE("Mod rejects float without fmod and integer division by zero", "[math][Mod]") {
  OpTester("Mod", 13)
      .Input<float>("a", {1}, {1.0f})
      .Input<float>("b", {1}, {2.0f})
      .Output<float>("c", {1}, {1.0f})
      .RunExpectingError("fmod must be 1");
  OpTester("Mod", 13)
      .Input<int64_t>("a", {2}, {1, 2})
      .Input<int64_t>("b", {2}, {1, 0})
      .Output<int64_t>("c", {2}, {0, 0})
      .RunExpectingError("modulo by zero");
  OpTester("Mod", 13)
      .AttrInt("fmod", 2)
      .Input<int64_t>("a", {1}, {1})
      .Input<int64_t>("b", {1}, {1})
      .Output<int64_t>("c", {1}, {0})
      .RunExpectingError("fmod must be 0 or 1");
}

TEST_CASE("BitShift left and right, shifts past the width give 0", "[math][BitShift]") {
  OpTester("BitShift", 11)
      .AttrString("direction", "LEFT")
      .Input<uint8_t>("x", {4}, {1, 3, 255, 1})
      .Input<uint8_t>("y", {4}, {1, 2, 1, 8})
      .Output<uint8_t>("z", {4}, {2, 12, 254, 0})
      .Run();
  OpTester("BitShift", 11)
      .AttrString("direction", "RIGHT")
      .Input<uint64_t>("x", {2, 2}, {16, 256, 1ULL << 63, 7})
      .Input<uint64_t>("y", {2}, {2, 64})
      .Output<uint64_t>("z", {2, 2}, {4, 0, 1ULL << 61, 0})
      .Run();
  OpTester("BitShift", 11)
      .AttrString("direction", "UP")
      .Input<uint8_t>("x", {1}, {1})
      .Input<uint8_t>("y", {1}, {1})
      .Output<uint8_t>("z", {1}, {2})
      .RunExpectingError("LEFT or RIGHT");
}

}  // namespace ort::test
