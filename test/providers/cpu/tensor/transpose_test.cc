#include <catch2/catch.hpp>

#include <numeric>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

std::vector<float> Iota(size_t count) {
  std::vector<float> values(count);
  std::iota(values.begin(), values.end(), 0.0f);
  return values;
}

}  // namespace

TEST_CASE("Transpose reverses the axes by default", "[tensor][Transpose]") {
  OpTester("Transpose", 13)
      .Input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Output<float>("y", {3, 2}, {1, 4, 2, 5, 3, 6})
      .Run();
  OpTester("Transpose", 1)
      .Input<std::string>("x", {2, 2}, {"a", "b", "c", "d"})
      .Output<std::string>("y", {2, 2}, {"a", "c", "b", "d"})
      .Run();
}

TEST_CASE("Transpose handles the 4-D permutations of transformers", "[tensor][Transpose]") {
  // Expected values from numpy: np.arange(24).reshape(2, 3, 2, 2).transpose(perm).
  struct Case {
    std::vector<int64_t> perm;
    std::vector<int64_t> y_dims;
    std::vector<float> y;
  };
  const Case cases[] = {
      {{0, 2, 1, 3}, {2, 2, 3, 2}, {0,  1,  4,  5,  8,  9,  2,  3,  6,  7,  10, 11,
                                    12, 13, 16, 17, 20, 21, 14, 15, 18, 19, 22, 23}},
      {{0, 2, 3, 1}, {2, 2, 2, 3}, {0,  4,  8,  1,  5,  9,  2,  6,  10, 3,  7,  11,
                                    12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23}},
      {{0, 3, 1, 2}, {2, 2, 3, 2}, {0,  2,  4,  6,  8,  10, 1,  3,  5,  7,  9,  11,
                                    12, 14, 16, 18, 20, 22, 13, 15, 17, 19, 21, 23}},
      {{3, 1, 0, 2}, {2, 3, 2, 2}, {0, 2, 12, 14, 4, 6, 16, 18, 8, 10, 20, 22,
                                    1, 3, 13, 15, 5, 7, 17, 19, 9, 11, 21, 23}},
  };
  for (const Case& c : cases) {
    OpTester("Transpose", 13)
        .AttrInts("perm", c.perm)
        .Input<float>("x", {2, 3, 2, 2}, Iota(24))
        .Output<float>("y", c.y_dims, c.y)
        .Run();
  }
}

TEST_CASE("Transpose tiles large matrices across threads", "[tensor][Transpose]") {
  const int64_t batch = 3, rows = 67, columns = 45;
  std::vector<int64_t> x(static_cast<size_t>(batch * rows * columns));
  std::iota(x.begin(), x.end(), 0);
  std::vector<int64_t> expected(x.size());
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < columns; ++c) {
        expected[static_cast<size_t>((b * columns + c) * rows + r)] =
            x[static_cast<size_t>((b * rows + r) * columns + c)];
      }
    }
  }
  OpTester("Transpose", 13)
      .AttrInts("perm", {0, 2, 1})
      .Input<int64_t>("x", {batch, rows, columns}, x)
      .Output<int64_t>("y", {batch, columns, rows}, expected)
      .Threads(2)
      .Run();
}

TEST_CASE("Transpose moves a few channels last row by row", "[tensor][Transpose]") {
  // x[n][c][h][w] = 12 n + 4 c + 2 h + w; y[n][h][w][c] = x[n][c][h][w].
  std::vector<uint8_t> x(24);
  std::iota(x.begin(), x.end(), uint8_t{0});
  OpTester("Transpose", 13)
      .AttrInts("perm", {0, 2, 3, 1})
      .Input<uint8_t>("x", {2, 3, 2, 2}, x)
      .Output<uint8_t>("y", {2, 2, 2, 3}, {0,  4,  8,  1,  5,  9,  2,  6,  10, 3,  7,  11,
                                           12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23})
      .Run();
  // Four channels of 3000 pixels at two threads: several row ranges per image.
  const std::vector<float> planes = Iota(4 * 3000);
  std::vector<float> pixels(planes.size());
  for (size_t p = 0; p < 3000; ++p) {
    for (size_t c = 0; c < 4; ++c) pixels[p * 4 + c] = planes[c * 3000 + p];
  }
  OpTester("Transpose", 13)
      .AttrInts("perm", {0, 2, 1})
      .Threads(2)
      .Input<float>("x", {1, 4, 3000}, planes)
      .Output<float>("y", {1, 3000, 4}, pixels)
      .Run();
}

TEST_CASE("Transpose of unit axes, empty tensors and half types", "[tensor][Transpose]") {
  OpTester("Transpose", 13)
      .AttrInts("perm", {1, 0, 2})
      .Input<float>("x", {1, 2, 2}, {1, 2, 3, 4})
      .Output<float>("y", {2, 1, 2}, {1, 2, 3, 4})
      .Run();
  OpTester("Transpose", 13)
      .AttrInts("perm", {1, 0})
      .Input<float>("x", {0, 3}, {})
      .Output<float>("y", {3, 0}, {})
      .Run();
  OpTester("Transpose", 13)
      .Input<Float16>("x", {2, 2}, {Float16(1.0f), Float16(2.0f), Float16(3.0f), Float16(4.0f)})
      .Output<Float16>("y", {2, 2}, {Float16(1.0f), Float16(3.0f), Float16(2.0f), Float16(4.0f)})
      .Run();
  OpTester("Transpose", 13).Input<int32_t>("x", {}, {9}).Output<int32_t>("y", {}, {9}).Run();
}

TEST_CASE("Transpose rejects invalid permutations", "[tensor][Transpose]") {
  OpTester("Transpose", 13)
      .AttrInts("perm", {0, 0})
      .Input<float>("x", {2, 2}, {1, 2, 3, 4})
      .Output<float>("y", {2, 2}, {1, 2, 3, 4})
      .RunExpectingError("not a permutation");
  OpTester("Transpose", 13)
      .AttrInts("perm", {0, 1, 2})
      .Input<float>("x", {2, 2}, {1, 2, 3, 4})
      .Output<float>("y", {2, 2}, {1, 2, 3, 4})
      .RunExpectingError("perm has 3 entries");
}

TEST_CASE("DepthToSpace in DCR and CRD modes", "[tensor][DepthToSpace]") {
  // x = np.arange(8).reshape(1, 8, 1, 1); DCR: reshape(1,2,2,2,1,1).transpose(0,3,4,1,5,2).
  const std::vector<float> x = Iota(8);
  OpTester("DepthToSpace", 13)
      .AttrInt("blocksize", 2)
      .Input<float>("x", {1, 8, 1, 1}, x)
      .Output<float>("y", {1, 2, 2, 2}, {0, 2, 4, 6, 1, 3, 5, 7})
      .Run();
  OpTester("DepthToSpace", 13)
      .AttrInt("blocksize", 2)
      .AttrString("mode", "CRD")
      .Input<float>("x", {1, 8, 1, 1}, x)
      .Output<float>("y", {1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})
      .Run();
  OpTester("DepthToSpace", 1)
      .AttrInt("blocksize", 2)
      .Input<float>("x", {1, 3, 1, 1}, {1, 2, 3})
      .Output<float>("y", {1, 1, 2, 2}, {1, 2, 3, 4})
      .RunExpectingError("not divisible");
  OpTester("DepthToSpace", 11)
      .AttrInt("blocksize", 2)
      .AttrString("mode", "XYZ")
      .Input<float>("x", {1, 4, 1, 1}, {1, 2, 3, 4})
      .Output<float>("y", {1, 1, 2, 2}, {1, 2, 3, 4})
      .RunExpectingError("unknown mode");
}

TEST_CASE("SpaceToDepth moves blocks into channels", "[tensor][SpaceToDepth]") {
  // x = np.arange(16).reshape(1, 1, 4, 4); reshape(1,1,2,2,2,2).transpose(0,3,5,1,2,4).
  OpTester("SpaceToDepth", 13)
      .AttrInt("blocksize", 2)
      .Input<float>("x", {1, 1, 4, 4}, Iota(16))
      .Output<float>("y", {1, 4, 2, 2}, {0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15})
      .Run();
  OpTester("SpaceToDepth", 13)
      .AttrInt("blocksize", 3)
      .Input<float>("x", {1, 1, 4, 4}, Iota(16))
      .Output<float>("y", {1, 1, 4, 4}, Iota(16))
      .RunExpectingError("not divisible");
}

TEST_CASE("Transpose moves packed int4 and uint4 elements", "[tensor][Transpose]") {
  OpTester("Transpose", 21)
      .TensorInput("x", OpTester::MakeFourBit(DataType::kInt4, {2, 3}, {-8, -1, 0, 1, 2, 7}))
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kInt4, {3, 2}, {-8, 1, -1, 2, 0, 7}))
      .Run();
  // [1, 3, 1] -> [3, 1, 1] keeps the order: a view of the same bytes.
  OpTester("Transpose", 21)
      .AttrInts("perm", {1, 0, 2})
      .TensorInput("x", OpTester::MakeFourBit(DataType::kUint4, {1, 3, 1}, {15, 0, 9}))
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kUint4, {3, 1, 1}, {15, 0, 9}))
      .Run();
}

}  // namespace ort::test
