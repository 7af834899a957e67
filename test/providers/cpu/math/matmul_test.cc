#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("MatMul multiplies 2-D matrices", "[math][MatMul]") {
  OpTester("MatMul", 13)
      .Input<float>("a", {2, 3}, {-2, -1, 0, 1, 2, 3})
      .Input<float>("b", {3, 2}, {1, 2, 0.5f, -1, 3, 0})
      .Output<float>("y", {2, 2}, {-2.5f, -3.0f, 11.0f, 0.0f})
      .Run();
}

TEST_CASE("MatMul promotes 1-D operands", "[math][MatMul]") {
  OpTester("MatMul", 13)
      .Input<float>("a", {3}, {1, 2, 3})
      .Input<float>("b", {3, 2}, {1, 2, 0.5f, -1, 3, 0})
      .Output<float>("y", {2}, {11.0f, 0.0f})
      .Run();
  OpTester("MatMul", 13)
      .Input<float>("a", {2, 3}, {-2, -1, 0, 1, 2, 3})
      .Input<float>("b", {3}, {1, 2, 3})
      .Output<float>("y", {2}, {-4.0f, 14.0f})
      .Run();
  OpTester("MatMul", 13)
      .Input<double>("a", {3}, {1, 2, 3})
      .Input<double>("b", {3}, {1, 2, 3})
      .Output<double>("y", {}, {14.0})
      .Run();
}

TEST_CASE("MatMul broadcasts batch dimensions", "[math][MatMul]") {
  // A [2,2,3] against a shared B [3,2] (folded into one product).
  OpTester("MatMul", 13)
      .Input<float>("a", {2, 2, 3}, {0, 0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4, 4.5f, 5, 5.5f})
      .ConstantInput<float>("b", {3, 2}, {1, 2, 0.5f, -1, 3, 0})
      .Output<float>("y", {2, 2, 2}, {3.25f, -0.5f, 10.0f, 1.0f, 16.75f, 2.5f, 23.5f, 4.0f})
      .Run();
  // A [2,1,2,3] x B [3,3,2] -> [2,3,2,2] (numpy).
  std::vector<float> a(12), b(18);
  for (int i = 0; i < 12; ++i) a[i] = static_cast<float>(i) - 5;
  for (int i = 0; i < 18; ++i) b[i] = static_cast<float>(i) * 0.25f;
  OpTester("MatMul", 13)
      .Input<float>("a", {2, 1, 2, 3}, a)
      .Input<float>("b", {3, 3, 2}, b)
      .Output<float>("y", {2, 3, 2, 2},
                     {-5.0f,  -8.0f,  -0.5f, -1.25f,  -23.0f, -26.0f, -5.0f, -5.75f,
                      -41.0f, -44.0f, -9.5f, -10.25f, 4.0f,   5.5f,   8.5f,  12.25f,
                      13.0f,  14.5f,  31.0f, 34.75f,  22.0f,  23.5f,  53.5f, 57.25f})
      .Run();
}

TEST_CASE("MatMul on integers and half types", "[math][MatMul]") {
  OpTester("MatMul", 13)
      .Input<int64_t>("a", {2, 2}, {1, -2, 3, 4})
      .Input<int64_t>("b", {2, 2}, {5, 6, -7, 8})
      .Output<int64_t>("y", {2, 2}, {19, -10, -13, 50})
      .Run();
  OpTester("MatMul", 13)
      .Input<uint32_t>("a", {1, 2}, {4000000000u, 1})
      .Input<uint32_t>("b", {2, 1}, {2, 3})
      .Output<uint32_t>("y", {1, 1}, {3705032707u})  // (8e9 + 3) mod 2^32
      .Run();
  OpTester("MatMul", 13)
      .Input<Float16>("a", {1, 2}, {Float16(1.5f), Float16(2.0f)})
      .Input<Float16>("b", {2, 1}, {Float16(2.0f), Float16(-0.25f)})
      .Output<Float16>("y", {1, 1}, {Float16(2.5f)})
      .Run();
  OpTester("MatMul", 13)
      .Input<BFloat16>("a", {1, 2}, {BFloat16(1.5f), BFloat16(2.0f)})
      .Input<BFloat16>("b", {2, 1}, {BFloat16(2.0f), BFloat16(-0.25f)})
      .Output<BFloat16>("y", {1, 1}, {BFloat16(2.5f)})
      .Run();
}

TEST_CASE("MatMul handles empty dimensions", "[math][MatMul]") {
  OpTester("MatMul", 13)
      .Input<float>("a", {0, 3}, {})
      .Input<float>("b", {3, 2}, {1, 2, 3, 4, 5, 6})
      .Output<float>("y", {0, 2}, {})
      .Run();
  // K == 0: the sum over nothing is zero.
  OpTester("MatMul", 13)
      .Input<float>("a", {2, 0}, {})
      .Input<float>("b", {0, 3}, {})
      .Output<float>("y", {2, 3}, {0, 0, 0, 0, 0, 0})
      .Run();
}

TEST_CASE("MatMul rejects mismatched shapes", "[math][MatMul]") {
  OpTester("MatMul", 13)
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {2, 2}, {1, 2, 3, 4})
      .Output<float>("y", {2, 2}, {0, 0, 0, 0})
      .RunExpectingError("inner dimensions differ");
  OpTester("MatMul", 13)
      .Input<float>("a", {2, 1, 2}, {1, 2, 3, 4})
      .Input<float>("b", {3, 2, 1}, {1, 2, 3, 4, 5, 6})
      .Output<float>("y", {2, 1, 1}, {0, 0})
      .RunExpectingError("do not broadcast");
}

TEST_CASE("MatMul splits batches and blocks across threads", "[math][MatMul]") {
  // Shapes past the GEMM cache blocks; the reference is a plain triple loop.
  const int64_t batches = 3, m = 70, k = 300, n = 530;
  std::vector<float> a(batches * m * k), b(batches * k * n), expected(batches * m * n, 0.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 7) % 13) - 6.0f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>((i * 5) % 11) * 0.125f;
  for (int64_t t = 0; t < batches; ++t) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t p = 0; p < k; ++p) {
        for (int64_t j = 0; j < n; ++j) {
          expected[(t * m + i) * n + j] += a[(t * m + i) * k + p] * b[(t * k + p) * n + j];
        }
      }
    }
  }
  OpTester("MatMul", 13)
      .Input<float>("a", {batches, m, k}, a)
      .Input<float>("b", {batches, k, n}, b)
      .Output<float>("y", {batches, m, n}, expected)
      .Threads(2)
      .Run();
}

}  // namespace ort::test
