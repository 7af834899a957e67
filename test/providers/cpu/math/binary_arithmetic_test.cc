#include <catch2/catch.hpp>

#include <limits>
#include <vector>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Add broadcasts a row over a matrix", "[math][Add]") {
  OpTester("Add", 14)
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {3}, {10, 20, 30})
      .Output<float>("c", {2, 3}, {11, 22, 33, 14, 25, 36})
      .Run();
}

TEST_CASE("Sub broadcasts a column and a scalar", "[math][Sub]") {
  OpTester("Sub", 14)
      .Input<int64_t>("a", {2, 1}, {10, 20})
      .Input<int64_t>("b", {1, 3}, {1, 2, 3})
      .Output<int64_t>("c", {2, 3}, {9, 8, 7, 19, 18, 17})
      .Run();
  OpTester("Sub", 14)
      .Input<double>("a", {}, {1.5})
      .Input<double>("b", {2}, {0.5, 2.0})
      .Output<double>("c", {2}, {1.0, -0.5})
      .Run();
}

TEST_CASE("Mul handles float16 and empty tensors", "[math][Mul]") {
  OpTester("Mul", 14)
      .Input<Float16>("a", {2}, {Float16(1.5f), Float16(-2.0f)})
      .Input<Float16>("b", {2}, {Float16(2.0f), Float16(0.25f)})
      .Output<Float16>("c", {2}, {Float16(3.0f), Float16(-0.5f)})
      .Run();
  OpTester("Mul", 14)
      .Input<float>("a", {0, 3}, {})
      .Input<float>("b", {3}, {1, 2, 3})
      .Output<float>("c", {0, 3}, {})
      .Run();
}

// A short run of one input repeated over the last outer dimension of the other (an NCHWc
// channel scale, [N, C/B, 1, B] over [N, C/B, H*W, B]), on either side, against the broadcast
// worked out here.
TEST_CASE("Mul and Div repeat a short run of one input over the other", "[math][Mul][Div]") {
  const std::vector<int64_t> big_dims{2, 3, 5, 4}, small_dims{2, 3, 1, 4};
  std::vector<float> big(2 * 3 * 5 * 4), small(2 * 3 * 4);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<float>(i % 7) - 2.5f;
  for (size_t i = 0; i < small.size(); ++i) small[i] = 0.25f * static_cast<float>(i + 1);
  std::vector<float> product(big.size()), quotient(big.size());
  for (size_t i = 0; i < big.size(); ++i) {
    const size_t plane = i / 20, lane = i % 4;
    product[i] = big[i] * small[plane * 4 + lane];
    quotient[i] = small[plane * 4 + lane] / big[i];
  }
  OpTester("Mul", 14)
      .Input<float>("a", big_dims, big)
      .Input<float>("b", small_dims, small)
      .Output<float>("c", big_dims, product)
      .Run();
  OpTester("Div", 14)
      .Input<float>("a", small_dims, small)
      .Input<float>("b", big_dims, big)
      .Output<float>("c", big_dims, quotient)
      .Run();
}

TEST_CASE("Div on integers truncates and reports division by zero", "[math][Div]") {
  OpTester("Div", 14)
      .Input<int32_t>("a", {3}, {7, -7, 9})
      .Input<int32_t>("b", {3}, {2, 2, -3})
      .Output<int32_t>("c", {3}, {3, -3, -3})
      .Run();
  OpTester("Div", 14)
      .Input<int32_t>("a", {1}, {1})
      .Input<int32_t>("b", {1}, {0})
      .Output<int32_t>("c", {1}, {0})
      .RunExpectingError("division by zero");
}

TEST_CASE("Add rejects shapes that do not broadcast", "[math][Add]") {
  OpTester("Add", 14)
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {2}, {1, 2})
      .Output<float>("c", {2, 3}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("cannot be broadcast");
}

TEST_CASE("Add splits large broadcasts across threads", "[math][Add]") {
  const int64_t rows = 512, columns = 300;
  std::vector<float> a(rows * columns), b(columns), expected(rows * columns);
  for (int64_t i = 0; i < rows * columns; ++i) a[i] = static_cast<float>(i % 97);
  for (int64_t j = 0; j < columns; ++j) b[j] = static_cast<float>(j) * 0.5f;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < columns; ++j) expected[i * columns + j] = a[i * columns + j] + b[j];
  }
  OpTester("Add", 14)
      .Input<float>("a", {rows, columns}, a)
      .Input<float>("b", {columns}, b)
      .Output<float>("c", {rows, columns}, expected)
      .Threads(2)
      .Run();
}

TEST_CASE("Add before opset 7 broadcasts B onto A only with broadcast=1", "[math][Add]") {
  // Trailing alignment.
  OpTester("Add", 6)
      .AttrInt("broadcast", 1)
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {3}, {10, 20, 30})
      .Output<float>("c", {2, 3}, {11, 22, 33, 14, 25, 36})
      .Run();
  // `axis` aligns B with A's dimension 0.
  OpTester("Mul", 6)
      .AttrInt("broadcast", 1)
      .AttrInt("axis", 0)
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {2}, {10, 100})
      .Output<float>("c", {2, 3}, {10, 20, 30, 400, 500, 600})
      .Run();
  OpTester("Sub", 1)
      .AttrInt("broadcast", 1)
      .AttrInt("axis", 1)
      .Input<float>("a", {2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
      .Input<float>("b", {3}, {1, 2, 3})
      .Output<float>("c", {2, 3, 2}, {0, 1, 1, 2, 2, 3, 6, 7, 7, 8, 8, 9})
      .Run();
  OpTester("Add", 6)
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {3}, {10, 20, 30})
      .Output<float>("c", {2, 3}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("broadcast is not set");
  OpTester("Add", 6)
      .AttrInt("broadcast", 1)
      .AttrInt("axis", 2)
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {2}, {1, 2})
      .Output<float>("c", {2, 3}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("does not fit");
  OpTester("Add", 6)
      .AttrInt("broadcast", 1)
      .AttrInt("axis", 1)
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {2}, {1, 2})
      .Output<float>("c", {2, 3}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("cannot be broadcast onto");
}

TEST_CASE("Integer Add, Sub and Mul wrap on overflow", "[math][Add][Mul]") {
  OpTester("Add", 14)
      .Input<int32_t>("a", {2}, {2147483647, -2147483647 - 1})
      .Input<int32_t>("b", {2}, {1, -1})
      .Output<int32_t>("c", {2}, {-2147483647 - 1, 2147483647})
      .Run();
  OpTester("Mul", 14)
      .Input<uint16_t>("a", {1}, {65535})
      .Input<uint16_t>("b", {1}, {65535})
      .Output<uint16_t>("c", {1}, {1})
      .Run();
  OpTester("Div", 14)
      .Input<int64_t>("a", {1}, {std::numeric_limits<int64_t>::min()})
      .Input<int64_t>("b", {1}, {-1})
      .Output<int64_t>("c", {1}, {std::numeric_limits<int64_t>::min()})
      .Run();
}

}  // namespace ort::test
