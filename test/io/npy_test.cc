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

// A header may claim any shape; the file's size is checked before anything is allocated, and
// dimensions past int64 (or whose product is) are errors, not exceptions or wrapped sizes.
TEST_CASE("npy headers claiming huge shapes are errors before allocation", "[io][npy]") {
  const std::string bytes = SerializeNpy(Tensor::FromVector<float>({3}, {1, 2, 3})).value();
  const auto with_shape = [&](const std::string& shape) {
    std::string edited = bytes;
    edited.replace(edited.find("(3,)"), 4, shape);
    return ParseNpy(edited, "'f.npy'").status().message();
  };
  // 2^40 x 3 floats (12 TiB) claimed, a few bytes present: rejected without reserving 12 TiB.
  CHECK_THAT(with_shape("(1099511627776, 3)"),
             Catch::Contains("'f.npy': the header says float[1099511627776,3] (13194139533312 "
                             "bytes) but the file holds"));
  CHECK_THAT(with_shape("(99999999999999999999,)"), Catch::Contains("past int64"));
  CHECK_THAT(with_shape("(4294967296, 4294967296)"), Catch::Contains("multiply past int64"));
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
