#include <catch2/catch.hpp>

#include <limits>
#include <vector>

#include "lib/ir/tensor.h"
#include "lib/ir/tensor_shape.h"

namespace ort {

namespace {
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t k2Pow31 = int64_t{1} << 31;
constexpr int64_t k2Pow40 = int64_t{1} << 40;
}  // namespace

TEST_CASE("CheckedMul reports int64 overflow", "[ir][TensorShape]") {
  CHECK(CheckedMul(3, 4) == 12);
  CHECK(CheckedMul(0, kMax) == 0);
  CHECK(CheckedMul(kMax, 1) == kMax);
  CHECK_FALSE(CheckedMul(int64_t{1} << 32, int64_t{1} << 31).has_value());
  CHECK_FALSE(CheckedMul(kMax, 2).has_value());
  CHECK(CheckedMul(int64_t{1} << 31, int64_t{1} << 31) == int64_t{1} << 62);
}

TEST_CASE("CheckedElementCount refuses negative and overflowing shapes", "[ir][TensorShape]") {
  CHECK(CheckedElementCount(std::vector<int64_t>{}).value() == 1);
  CHECK(CheckedElementCount(std::vector<int64_t>{2, 3, 4}).value() == 24);
  CHECK(CheckedElementCount(std::vector<int64_t>{5, 0, 7}).value() == 0);

  // 2^31 * 2^31 * 4 = 2^64: wraps to 0 in unchecked int64 arithmetic.
  auto wrapped = CheckedElementCount(std::vector<int64_t>{k2Pow31, k2Pow31, 4});
  REQUIRE_FALSE(wrapped.ok());
  CHECK_THAT(wrapped.status().message(), Catch::Contains("[2147483648,2147483648,4]"));
  CHECK_THAT(wrapped.status().message(), Catch::Contains("int64"));

  // A zero makes the total 0, but the other dimensions' strides would still overflow.
  CHECK_FALSE(CheckedElementCount(std::vector<int64_t>{k2Pow40, k2Pow40, 0}).ok());
  CHECK_FALSE(CheckedElementCount(std::vector<int64_t>{3, -1}).ok());
  CHECK(TensorShape{k2Pow40, 2}.CheckedNumElements().value() == int64_t{1} << 41);
}

TEST_CASE("TensorBytes checks the byte size as well as the count", "[ir][TensorShape]") {
  CHECK(TensorBytes(DataType::kFloat, TensorShape{2, 3}).value() == 24);
  CHECK(TensorBytes(DataType::kInt4, TensorShape{3}).value() == 2);
  // 2^62 elements fit in int64, their 2^64 bytes do not.
  CHECK_FALSE(TensorBytes(DataType::kFloat, TensorShape{int64_t{1} << 62}).ok());
  CHECK(TensorBytes(DataType::kUint8, TensorShape{int64_t{1} << 62}).value() == size_t{1} << 62);
  CHECK_FALSE(TensorBytes(DataType::kFloat, TensorShape{k2Pow31, k2Pow31, 4}).ok());
}

TEST_CASE("Tensors with overflowing shapes are never made", "[ir][TensorShape]") {
  CHECK_FALSE(Tensor::Allocate(DataType::kFloat, TensorShape{k2Pow31, k2Pow31, 4}).ok());
  CHECK_FALSE(Tensor::Allocate(DataType::kFloat, TensorShape{k2Pow40, k2Pow40, 0}).ok());
  float value = 1.0f;
  CHECK_FALSE(Tensor::Borrow(DataType::kFloat, TensorShape{k2Pow31, k2Pow31, 4}, &value,
                             sizeof(value), nullptr)
                  .ok());

  // A reshape whose dimensions wrap around to the input's element count is no view of it.
  const Tensor one = Tensor::Scalar<float>(1.0f);
  CHECK_FALSE(one.Reshaped(TensorShape{k2Pow31, k2Pow31, 4}).ok());
  CHECK(one.Reshaped(TensorShape{1, 1}).ok());
}

TEST_CASE("FormatBytes uses binary units", "[ir][TensorShape]") {
  CHECK(FormatBytes(1000) == "1000 bytes");
  CHECK(FormatBytes(2048) == "2 KiB");
  CHECK(FormatBytes(size_t{16} << 30) == "16 GiB");
  CHECK(FormatBytes((size_t{11} << 40) / 10) == "1.1 TiB");
}

}  // namespace ort
