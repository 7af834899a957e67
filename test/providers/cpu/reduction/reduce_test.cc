#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

// Shape [2, 3, 2]; expected values computed with numpy (np.sum, np.mean, ... keepdims=True).
const std::vector<float> kX = {1, 2, 3, 4, 5, 6, -1, 7, 0, 2, 8, -3};

// Runs `op` at opset 13 (axes attribute) and 18 (axes input) with keepdims=1 and 0.
void CheckReduce(const char* op, const std::vector<int64_t>& axes,
                 const std::vector<int64_t>& kept_shape, const std::vector<float>& expected) {
  std::vector<int64_t> squeezed;
  for (size_t i = 0; i < kept_shape.size(); ++i) {
    bool reduced = false;
    for (int64_t a : axes) reduced = reduced || (a < 0 ? a + 3 : a) == static_cast<int64_t>(i);
    if (!reduced) squeezed.push_back(kept_shape[i]);
  }
  OpTester(op, 13)
      .AttrInts("axes", axes)
      .Input<float>("x", {2, 3, 2}, kX)
      .Output<float>("y", kept_shape, expected)
      .Run();
  OpTester(op, 18)
      .AttrInt("keepdims", 0)
      .Input<float>("x", {2, 3, 2}, kX)
      .Input<int64_t>("axes", {static_cast<int64_t>(axes.size())}, axes)
      .Output<float>("y", squeezed, expected)
      .Run();
}

}  // namespace

TEST_CASE("ReduceSum over inner, middle, outer and all axes", "[reduction][ReduceSum]") {
  OpTester("ReduceSum", 11)
      .AttrInts("axes", {1})
      .Input<float>("x", {2, 3, 2}, kX)
      .Output<float>("y", {2, 1, 2}, {9, 12, 7, 6})
      .Run();
  OpTester("ReduceSum", 13)
      .Input<float>("x", {2, 3, 2}, kX)
      .Input<int64_t>("axes", {2}, {0, -1})
      .Output<float>("y", {1, 3, 1}, {9, 9, 16})
      .Run();
  OpTester("ReduceSum", 13)
      .AttrInt("keepdims", 0)
      .Input<float>("x", {2, 3, 2}, kX)
      .Input<int64_t>("axes", {1}, {2})
      .Output<float>("y", {2, 3}, {3, 7, 11, 6, 2, 5})
      .Run();
  OpTester("ReduceSum", 1)
      .AttrInt("keepdims", 0)
      .Input<float>("x", {2, 3, 2}, kX)
      .Output<float>("y", {}, {34})
      .Run();
}

TEST_CASE("ReduceSum with empty axes: all, or nothing with noop_with_empty_axes",
          "[reduction][ReduceSum]") {
  OpTester("ReduceSum", 13)
      .Input<float>("x", {2, 3, 2}, kX)
      .Input<int64_t>("axes", {0}, {})
      .Output<float>("y", {1, 1, 1}, {34})
      .Run();
  OpTester("ReduceSum", 13)
      .AttrInt("noop_with_empty_axes", 1)
      .Input<float>("x", {2, 3, 2}, kX)
      .Input<int64_t>("axes", {0}, {})
      .Output<float>("y", {2, 3, 2}, kX)
      .Run();
  OpTester("ReduceSumSquare", 18)
      .AttrInt("noop_with_empty_axes", 1)
      .Input<float>("x", {3}, {1, -2, 3})
      .Output<float>("y", {3}, {1, 4, 9})
      .Run();
}

TEST_CASE("ReduceMean, ReduceMax, ReduceMin, ReduceProd", "[reduction][ReduceMean][ReduceMax]") {
  CheckReduce("ReduceMean", {1}, {2, 1, 2}, {3, 4, 2.3333333f, 2});
  CheckReduce("ReduceMean", {0, 2}, {1, 3, 1}, {2.25f, 2.25f, 4});
  CheckReduce("ReduceMean", {-1}, {2, 3, 1}, {1.5f, 3.5f, 5.5f, 3, 1, 2.5f});
  CheckReduce("ReduceMax", {1}, {2, 1, 2}, {5, 6, 8, 7});
  CheckReduce("ReduceMax", {0, 2}, {1, 3, 1}, {7, 4, 8});
  CheckReduce("ReduceMin", {2}, {2, 3, 1}, {1, 3, 5, -1, 0, -3});
  CheckReduce("ReduceMin", {0, 1, 2}, {1, 1, 1}, {-3});
  CheckReduce("ReduceProd", {1}, {2, 1, 2}, {15, 48, 0, -42});
  CheckReduce("ReduceProd", {2}, {2, 3, 1}, {2, 12, 30, -7, 0, -24});
}

TEST_CASE("ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp",
          "[reduction][ReduceL1][ReduceL2][ReduceLogSumExp]") {
  CheckReduce("ReduceL1", {0, 2}, {1, 3, 1}, {11, 9, 22});
  CheckReduce("ReduceL2", {1}, {2, 1, 2}, {5.91608f, 7.483315f, 8.0622578f, 7.8740077f});
  CheckReduce("ReduceL2", {2}, {2, 3, 1}, {2.236068f, 5, 7.8102498f, 7.0710678f, 2, 8.5440035f});
  CheckReduce("ReduceSumSquare", {0, 2}, {1, 3, 1}, {55, 29, 134});
  CheckReduce("ReduceLogSumExp", {1}, {2, 1, 2}, {5.1429315f, 6.1429315f, 8.0004587f, 7.0067606f});
  CheckReduce("ReduceLogSumExp", {0, 1, 2}, {1, 1, 1}, {8.460206f});
  OpTester("ReduceLogSum", 13)
      .AttrInts("axes", {1})
      .Input<float>("x", {2, 3, 2}, {1, 2, 3, 4, 5, 6, 1, 7, 0, 2, 8, 3})
      .Output<float>("y", {2, 1, 2}, {2.1972246f, 2.4849067f, 2.1972246f, 2.4849067f})
      .Run();
  // Large values: the maximum is subtracted before exponentiating.
  OpTester("ReduceLogSumExp", 13)
      .Input<float>("x", {2}, {1000, 1000})
      .Output<float>("y", {1}, {1000.6931472f})
      .Run();
}

TEST_CASE("Reductions on integers", "[reduction][ReduceSum][ReduceMean][ReduceMax]") {
  OpTester("ReduceSum", 13)
      .AttrInt("keepdims", 0)
      .Input<int32_t>("x", {2, 2}, {2147483647, 1, -5, 3})
      .Input<int64_t>("axes", {1}, {1})
      .Output<int32_t>("y", {2}, {-2147483647 - 1, -2})
      .Run();
  // The mean of int8 values does not overflow in the accumulator.
  OpTester("ReduceMean", 13)
      .AttrInt("keepdims", 0)
      .Input<int8_t>("x", {4}, {100, 100, 100, -3})
      .Output<int8_t>("y", {}, {74})
      .Run();
  OpTester("ReduceMax", 13)
      .AttrInt("keepdims", 0)
      .Input<uint8_t>("x", {2, 2}, {3, 250, 7, 1})
      .Output<uint8_t>("y", {}, {250})
      .Run();
  OpTester("ReduceL1", 13)
      .AttrInt("keepdims", 0)
      .Input<int64_t>("x", {3}, {-4, 2, -1})
      .Output<int64_t>("y", {}, {7})
      .Run();
  OpTester("ReduceMin", 18)
      .AttrInt("keepdims", 0)
      .Input<bool>("x", {3}, {true, false, true})
      .Output<bool>("y", {}, {false})
      .Run();
}

TEST_CASE("Reducing an empty set gives the identity", "[reduction][ReduceSum][ReduceMax]") {
  auto run = [](const char* op, float identity) {
    OpTester(op, 13)
        .AttrInts("axes", {1})
        .Input<float>("x", {2, 0}, {})
        .Output<float>("y", {2, 1}, {identity, identity})
        .Run();
  };
  const float inf = std::numeric_limits<float>::infinity();
  run("ReduceMax", -inf);
  run("ReduceMin", inf);
  run("ReduceProd", 1);
  run("ReduceL2", 0);
  run("ReduceLogSumExp", -inf);
  run("ReduceLogSum", -inf);
  run("ReduceMean", std::numeric_limits<float>::quiet_NaN());
  OpTester("ReduceSum", 13)
      .Input<float>("x", {0, 3}, {})
      .Input<int64_t>("axes", {1}, {0})
      .Output<float>("y", {1, 3}, {0, 0, 0})
      .Run();
  OpTester("ReduceMax", 13)
      .AttrInts("axes", {0})
      .AttrInt("keepdims", 0)
      .Input<int32_t>("x", {0, 2}, {})
      .Output<int32_t>("y", {2},
                       {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::min()})
      .Run();
  OpTester("ReduceSum", 13)
      .Input<float>("x", {0, 3}, {})
      .Input<int64_t>("axes", {1}, {1})
      .Output<float>("y", {0, 1}, {})
      .Run();
}

TEST_CASE("Reductions reject bad axes", "[reduction][ReduceMean]") {
  OpTester("ReduceMean", 13)
      .AttrInts("axes", {3})
      .Input<float>("x", {2, 3, 2}, kX)
      .Output<float>("y", {1}, {0})
      .RunExpectingError("axis");
  OpTester("ReduceMean", 18)
      .Input<float>("x", {2, 3, 2}, kX)
      .Input<int64_t>("axes", {1, 1}, {0})
      .Output<float>("y", {1}, {0})
      .RunExpectingError("1-D");
}

TEST_CASE("ReduceMean over the last axis and over leading axes of a large tensor",
          "[reduction][ReduceMean]") {
  const int64_t rows = 600, columns = 300;
  std::vector<float> x(rows * columns), row_mean(rows), column_mean(columns, 0.0f);
  for (int64_t i = 0; i < rows; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < columns; ++j) {
      x[i * columns + j] = static_cast<float>((i * 13 + j * 7) % 101) * 0.25f;
      sum += x[i * columns + j];
      column_mean[j] += x[i * columns + j] / rows;
    }
    row_mean[i] = static_cast<float>(sum / columns);
  }
  OpTester("ReduceMean", 13)
      .AttrInts("axes", {-1})
      .Input<float>("x", {rows, columns}, x)
      .Output<float>("y", {rows, 1}, row_mean)
      .Threads(2)
      .Run();
  OpTester("ReduceMean", 13)
      .AttrInts("axes", {0})
      .AttrInt("keepdims", 0)
      .Input<float>("x", {rows, columns}, x)
      .Output<float>("y", {columns}, column_mean)
      .Threads(2)
      .Run();
}

TEST_CASE("ArgMax and ArgMin with keepdims and select_last_index", "[reduction][ArgMax][ArgMin]") {
  const std::vector<float> x = {2, 5, 5, 1, 7, 0};  // shape [2, 3]
  OpTester("ArgMax", 13)
      .AttrInt("axis", 1)
      .Input<float>("x", {2, 3}, x)
      .Output<int64_t>("y", {2, 1}, {1, 1})
      .Run();
  OpTester("ArgMax", 13)
      .AttrInt("axis", -1)
      .AttrInt("select_last_index", 1)
      .AttrInt("keepdims", 0)
      .Input<float>("x", {2, 3}, x)
      .Output<int64_t>("y", {2}, {2, 1})
      .Run();
  OpTester("ArgMin", 11).Input<float>("x", {2, 3}, x).Output<int64_t>("y", {1, 3}, {1, 0, 1}).Run();
  OpTester("ArgMin", 12)
      .AttrInt("keepdims", 0)
      .AttrInt("select_last_index", 1)
      .Input<int32_t>("x", {3, 1}, {4, 2, 2})
      .Output<int64_t>("y", {1}, {2})
      .Run();
  OpTester("ArgMax", 13)
      .AttrInt("axis", 1)
      .Input<float>("x", {2, 0}, {})
      .Output<int64_t>("y", {2, 1}, {0, 0})
      .RunExpectingError("empty axis");
  OpTester("ArgMax", 13)
      .AttrInt("axis", 2)
      .Input<float>("x", {2, 3}, x)
      .Output<int64_t>("y", {2, 1}, {0, 0})
      .RunExpectingError("axis");
}

}  // namespace ort::test
