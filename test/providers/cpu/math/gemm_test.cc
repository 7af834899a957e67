#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

namespace {
const std::vector<float> kA = {1, 2, 3, 4, 5, 6};   // [3, 2]
const std::vector<float> kB = {1, 0, -1, 2, 1, 0};  // [2, 3]
}  // namespace

TEST_CASE("Gemm applies alpha, beta and a broadcast row bias", "[math][Gemm]") {
  OpTester("Gemm", 13)
      .AttrFloat("alpha", 2.0f)
      .AttrFloat("beta", 0.5f)
      .Input<float>("a", {3, 2}, kA)
      .Input<float>("b", {2, 3}, kB)
      .Input<float>("c", {3}, {10, 20, 30})
      .Output<float>("y", {3, 3}, {15, 14, 13, 27, 18, 9, 39, 22, 5})
      .Run();
}

TEST_CASE("Gemm with a constant (pre-packed) transposed B, one row and several", "[math][Gemm]") {
  // op(B) = B^T = [[1, 2], [0, 1], [-1, 0.5]]; Y = 2 * A op(B) + C.
  const std::vector<float> b = {1, 0, -1, 2, 1, 0.5f};
  OpTester("Gemm", 13)
      .AttrInt("transB", 1)
      .AttrFloat("alpha", 2.0f)
      .Input<float>("a", {1, 3}, {1, 2, 3})
      .ConstantInput<float>("b", {2, 3}, b)
      .Input<float>("c", {2}, {0.5f, -1})
      .Output<float>("y", {1, 2}, {-3.5f, 10})
      .Run();
  OpTester("Gemm", 13)
      .AttrInt("transB", 1)
      .AttrFloat("alpha", 2.0f)
      .Input<float>("a", {2, 3}, {1, 2, 3, 0, 1, -1})
      .ConstantInput<float>("b", {2, 3}, b)
      .Input<float>("c", {2}, {0.5f, -1})
      .Output<float>("y", {2, 2}, {-3.5f, 10, 2.5f, 0})
      .Run();
}

TEST_CASE("Gemm transposes A and B", "[math][Gemm]") {
  OpTester("Gemm", 13)
      .AttrInt("transA", 1)
      .AttrInt("transB", 1)
      .AttrFloat("alpha", 0.5f)
      .Input<float>("a", {3, 2}, kA)
      .Input<float>("b", {2, 3}, kB)
      .Output<float>("y", {2, 2}, {-2.0f, 2.5f, -2.0f, 4.0f})
      .Run();
}

TEST_CASE("Gemm broadcasts column and scalar biases", "[math][Gemm]") {
  OpTester("Gemm", 13)
      .Input<float>("a", {3, 2}, kA)
      .Input<float>("b", {2, 3}, kB)
      .Input<float>("c", {3, 1}, {1, 2, 3})
      .Output<float>("y", {3, 3}, {6, 3, 0, 13, 6, -1, 20, 9, -2})
      .Run();
  OpTester("Gemm", 13)
      .Input<double>("a", {1, 2}, {1, 2})
      .Input<double>("b", {2, 1}, {3, 4})
      .Input<double>("c", {}, {0.5})
      .Output<double>("y", {1, 1}, {11.5})
      .Run();
}

TEST_CASE("Gemm without C from opset 11 and on integers", "[math][Gemm]") {
  OpTester("Gemm", 11)
      .Input<float>("a", {1, 2}, {1, 2})
      .Input<float>("b", {2, 2}, {1, 2, 3, 4})
      .Output<float>("y", {1, 2}, {7, 10})
      .Run();
  OpTester("Gemm", 13)
      .Input<int32_t>("a", {2, 2}, {1, 2, 3, 4})
      .Input<int32_t>("b", {2, 2}, {1, -1, 1, 1})
      .Input<int32_t>("c", {2}, {100, 200})
      .Output<int32_t>("y", {2, 2}, {103, 201, 107, 201})
      .Run();
  OpTester("Gemm", 13)
      .Input<Float16>("a", {1, 1}, {Float16(3.0f)})
      .Input<Float16>("b", {1, 1}, {Float16(0.5f)})
      .Output<Float16>("y", {1, 1}, {Float16(1.5f)})
      .Run();
}

TEST_CASE("Gemm with a zero beta ignores C", "[math][Gemm]") {
  OpTester("Gemm", 13)
      .AttrFloat("beta", 0.0f)
      .Input<float>("a", {1, 1}, {2})
      .Input<float>("b", {1, 1}, {3})
      .Input<float>("c", {1, 1}, {NAN})
      .Output<float>("y", {1, 1}, {6})
      .Run();
}

TEST_CASE("Gemm opset 6 honours the legacy broadcast attribute", "[math][Gemm]") {
  OpTester("Gemm", 6)
      .AttrInt("broadcast", 1)
      .Input<float>("a", {1, 2}, {1, 2})
      .Input<float>("b", {2, 2}, {1, 2, 3, 4})
      .Input<float>("c", {2}, {1, 1})
      .Output<float>("y", {1, 2}, {8, 11})
      .Run();
  OpTester("Gemm", 6)
      .Input<float>("a", {1, 2}, {1, 2})
      .Input<float>("b", {2, 2}, {1, 2, 3, 4})
      .Input<float>("c", {2}, {1, 1})
      .Output<float>("y", {1, 2}, {8, 11})
      .RunExpectingError("broadcast is 0");
}

TEST_CASE("Gemm rejects bad shapes and handles empty matrices", "[math][Gemm]") {
  OpTester("Gemm", 13)
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Output<float>("y", {2, 3}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("inner dimensions differ");
  OpTester("Gemm", 13)
      .Input<float>("a", {2, 2}, {1, 2, 3, 4})
      .Input<float>("b", {2, 2}, {1, 2, 3, 4})
      .Input<float>("c", {3}, {1, 2, 3})
      .Output<float>("y", {2, 2}, {0, 0, 0, 0})
      .RunExpectingError("does not broadcast");
  OpTester("Gemm", 13)
      .Input<float>("a", {0, 2}, {})
      .Input<float>("b", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Output<float>("y", {0, 3}, {})
      .Run();
}

}  // namespace ort::test
