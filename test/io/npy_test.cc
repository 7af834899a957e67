#include <catch2/catch.hpp>

#include "lib/io/compare.h"
#include "lib/io/npy.h"

namespace ort {

TEST_CASE("npy round-trips every numeric type", "[io][npy]") {
  Tensor floats = Tensor::FromVector<float>({2, 2}, {1.5f, -2, 3, 4});
  auto bytes = SerializeNpy(floats);
  REQUIRE(bytes.ok());
  CHECK(bytes->size() % 64 == 16);  // 64-byte aligned header, then 16 bytes of data
  auto parsed = ParseNpy(*bytes, "test");
  REQUIRE(parsed.ok());
  CHECK(CompareValues(Value(*parsed), Value(floats), {0, 0}).match);

  Tensor scalar = Tensor::Scalar<int64_t>(42);
  auto scalar_parsed = ParseNpy(SerializeNpy(scalar).value(), "scalar");
  REQUIRE(scalar_parsed.ok());
  CHECK(scalar_parsed->shape().rank() == 0);
  CHECK(scalar_parsed->Data<int64_t>()[0] == 42);
}

TEST_CASE("npy errors name the problem", "[io][npy]") {
  CHECK(ParseNpy("hello world", "f").status().message().find("bad magic") != std::string::npos);
  std::string bytes = SerializeNpy(Tensor::FromVector<float>({3}, {1, 2, 3})).value();
  bytes.pop_back();
  CHECK(ParseNpy(bytes, "f").status().message().find("holds 11 bytes") != std::string::npos);
  std::string fortran = SerializeNpy(Tensor::FromVector<float>({3}, {1, 2, 3})).value();
  fortran.replace(fortran.find("False"), 5, "True ");
  CHECK(ParseNpy(fortran, "f").status().message().find("Fortran") != std::string::npos);
}

TEST_CASE("CompareValues applies rtol and atol", "[io][compare]") {
  Tensor expected = Tensor::FromVector<float>({3}, {1.0f, 100.0f, NAN});
  Tensor close = Tensor::FromVector<float>({3}, {1.0005f, 100.05f, NAN});
  Tensor far = Tensor::FromVector<float>({3}, {1.01f, 100.0f, NAN});
  CHECK(CompareValues(Value(close), Value(expected), {1e-3, 1e-5}).match);
  Comparison mismatch = CompareValues(Value(far), Value(expected), {1e-3, 1e-5});
  CHECK_FALSE(mismatch.match);
  CHECK(mismatch.max_abs_diff == Approx(0.01).epsilon(1e-3));
  CHECK_FALSE(
      CompareValues(Value(Tensor::FromVector<float>({2}, {1, 2})), Value(expected), {}).match);
}

}  // namespace ort
