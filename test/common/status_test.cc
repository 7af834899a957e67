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

TEST_CASE("WithNode names the node once and marks the status as naming it", "[common][Status]") {
  CHECK(Status::OK().WithNode("node 'n' (Relu)").ok());
  const Status plain = ORT_ERROR(kInvalidArgument, "bad input");
  CHECK_FALSE(plain.names_node());
  const Status named = plain.WithNode("node 'n' (Relu)");
  CHECK(named.names_node());
  CHECK(named.code() == StatusCode::kInvalidArgument);
  CHECK(named.message() == "node 'n' (Relu): bad input");
  CHECK(named.WithNode("node 'n' (Relu)").message() == "node 'n' (Relu): bad input");
}

TEST_CASE("WithContext keeps the node a status names", "[common][Status]") {
  const Status named = ORT_ERROR(kInvalidArgument, "bad input").WithNode("node 'n' (Relu)");
  const Status wrapped = named.WithContext("model m");
  CHECK(wrapped.message() == "model m: node 'n' (Relu): bad input");
  CHECK(wrapped.names_node());
  CHECK(wrapped.WithNode("node 'n' (Relu)").message() == "model m: node 'n' (Relu): bad input");
  CHECK_FALSE(ORT_ERROR(kInvalidArgument, "bad input").WithContext("model m").names_node());
}

TEST_CASE("WithNode puts an outer node in front of an error that names an inner one",
          "[common][Status]") {
  // A control-flow node's error from its subgraph names the subgraph's failing node.
  const Status inner = ORT_ERROR(kInvalidArgument, "bad input").WithNode("node 'inner' (Relu)");
  const Status outer = inner.WithNode("node 'if' (If)");
  CHECK(outer.message() == "node 'if' (If): node 'inner' (Relu): bad input");
  CHECK(outer.WithNode("node 'if' (If)").message() == outer.message());
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
