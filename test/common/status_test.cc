#include <catch2/catch.hpp>

#include "lib/common/status.h"

namespace ort {
namespace {

Result<int> Half(int value) {
  if (value % 2 != 0) return ORT_ERROR(kInvalidArgument, "{} is odd", value);
  return value / 2;
}

Status Quarter(int value, int* out) {
  ORT_ASSIGN_OR_RETURN(int half, Half(value));
  ORT_ASSIGN_OR_RETURN(*out, Half(half));
  return Status::OK();
}

}  // namespace

TEST_CASE("Status carries a code and a formatted message", "[common][Status]") {
  CHECK(Status::OK().ok());
  Status error = ORT_ERROR(kNotFound, "file '{}' missing", "a.onnx");
  CHECK_FALSE(error.ok());
  CHECK(error.code() == StatusCode::kNotFound);
  CHECK(error.ToString() == "NOT_FOUND: file 'a.onnx' missing");
  CHECK(error.WithContext("model m").message() == "model m: file 'a.onnx' missing");
}

TEST_CASE("Result and ORT_ASSIGN_OR_RETURN propagate errors", "[common][Result]") {
  int out = 0;
  CHECK(Quarter(8, &out).ok());
  CHECK(out == 2);
  Status status = Quarter(6, &out);
  CHECK(status.message() == "3 is odd");
  CHECK_FALSE(Result<int>(Status::OK()).ok());
}

}  // namespace ort
