#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Max, Min, Sum, Mean broadcast any number of inputs", "[math][Max][Min][Sum][Mean]") {
  auto run = [](const char* op, std::vector<float> expected) {
    OpTester(op, 13)
        .Input<float>("a", {2, 3}, {1, 6, 3, 4, 2, 9})
        .Input<float>("b", {3}, {2, 5, 7})
        .Input<float>("c", {2, 1}, {0, 8})
        .Output<float>("y", {2, 3}, expected)
        .Run();
  };
  run("Max", {2, 6, 7, 8, 8, 9});
  run("Min", {0, 0, 0, 2, 2, 7});
  run("Sum", {3, 11, 10, 14, 15, 24});
  run("Mean", {1, 11.0f / 3, 10.0f / 3, 14.0f / 3, 5, 8});
}

TEST_CASE("Max and Min propagate NaN and accept one input", "[math][Max][Min]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpTester("Max", 13)
      .Input<float>("a", {3}, {nan, 1, 2})
      .Input<float>("b", {3}, {1, nan, 0})
      .Output<float>("y", {3}, {nan, nan, 2})
      .Run();
  OpTester("Min", 8).Input<double>("a", {2}, {3, -1}).Output<double>("y", {2}, {3, -1}).Run();
}

TEST_CASE("Max and Min take integers from opset 12, Sum wraps", "[math][Max][Min][Sum]") {
  OpTester("Max", 12)
      .Input<int8_t>("a", {3}, {-128, 5, 127})
      .Input<int8_t>("b", {3}, {-1, 6, 0})
      .Output<int8_t>("y", {3}, {-1, 6, 127})
      .Run();
  OpTester("Min", 13)
      .Input<uint64_t>("a", {2}, {10, 3})
      .Input<uint64_t>("b", {1}, {5})
      .Output<uint64_t>("y", {2}, {5, 3})
      .Run();
  OpTester("Max", 11)
      .Input<int32_t>("a", {1}, {1})
      .Input<int32_t>("b", {1}, {2})
      .Output<int32_t>("y", {1}, {2})
      .RunExpectingError("int32");
}

TEST_CASE("Variadic ops before opset 8 require equal shapes", "[math][Sum]") {
  OpTester("Sum", 6)
      .Input<float>("a", {2}, {1, 2})
      .Input<float>("b", {2}, {3, 4})
      .Output<float>("y", {2}, {4, 6})
      .Run();
  OpTester("Sum", 6)
      .Input<float>("a", {2}, {1, 2})
      .Input<float>("b", {1}, {3})
      .Output<float>("y", {2}, {4, 5})
      .RunExpectingError("no broadcasting before opset 8");
  OpTester("Mean", 13)
      .Input<float>("a", {2}, {1, 2})
      .Input<float>("b", {3}, {3, 4, 5})
      .Output<float>("y", {2}, {0, 0})
      .RunExpectingError("cannot be broadcast");
  OpTester("Max", 13)
      .Input<float>("a", {0, 2}, {})
      .Input<float>("b", {2}, {3, 4})
      .Output<float>("y", {0, 2}, {})
      .Run();
}

TEST_CASE("Clip with attributes before opset 11", "[math][Clip]") {
  OpTester("Clip", 6)
      .AttrFloat("min", -1.0f)
      .AttrFloat("max", 2.0f)
      .Input<float>("x", {5}, {-3, -1, 0.5f, 2, 7})
      .Output<float>("y", {5}, {-1, -1, 0.5f, 2, 2})
      .Run();
  OpTester("Clip", 6)
      .AttrFloat("max", 0.0f)
      .Input<float>("x", {3}, {-1e30f, 1, -2})
      .Output<float>("y", {3}, {-1e30f, 0, -2})
      .Run();
}

TEST_CASE("Clip with optional min/max inputs", "[math][Clip]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpTester("Clip", 13)
      .Input<float>("x", {2, 3}, {-3, -1, 0.5f, 2, 7, nan})
      .Input<float>("min", {}, {-1})
      .Input<float>("max", {}, {6})
      .Output<float>("y", {2, 3}, {-1, -1, 0.5f, 2, 6, nan})
      .Run();
  OpTester("Clip", 11)
      .Input<float>("x", {3}, {-3, 0, 9})
      .OmittedInput()
      .Input<float>("max", {}, {1})
      .Output<float>("y", {3}, {-3, 0, 1})
      .Run();
  OpTester("Clip", 12)
      .Input<int8_t>("x", {4}, {-128, -5, 5, 127})
      .Input<int8_t>("min", {}, {-10})
      .Output<int8_t>("y", {4}, {-10, -5, 5, 127})
      .Run();
  // min > max clips everything to max, like numpy.clip.
  OpTester("Clip", 13)
      .Input<int64_t>("x", {2}, {0, 10})
      .Input<int64_t>("min", {}, {5})
      .Input<int64_t>("max", {}, {3})
      .Output<int64_t>("y", {2}, {3, 3})
      .Run();
  OpTester("Clip", 13)
      .Input<Float16>("x", {2}, {Float16(-2.0f), Float16(3.0f)})
      .Input<Float16>("min", {}, {Float16(-1.0f)})
      .Input<Float16>("max", {}, {Float16(1.0f)})
      .Output<Float16>("y", {2}, {Float16(-1.0f), Float16(1.0f)})
      .Run();
}

TEST_CASE("Clip rejects non-scalar or mistyped bounds", "[math][Clip]") {
  OpTester("Clip", 13)
      .Input<float>("x", {2}, {1, 2})
      .Input<float>("min", {2}, {0, 0})
      .Output<float>("y", {2}, {1, 2})
      .RunExpectingError("must be a scalar");
}

}  // namespace ort::test
