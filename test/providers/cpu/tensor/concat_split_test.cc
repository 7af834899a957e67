#include <catch2/catch.hpp>

#include <limits>
#include <numeric>
#include <vector>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Concat joins along positive and negative axes", "[tensor][Concat]") {
  OpTester("Concat", 13)
      .AttrInt("axis", 1)
      .Input<float>("a", {2, 1}, {1, 2})
      .Input<float>("b", {2, 2}, {3, 4, 5, 6})
      .Output<float>("c", {2, 3}, {1, 3, 4, 2, 5, 6})
      .Run();
  OpTester("Concat", 13)
      .AttrInt("axis", -2)
      .Input<int64_t>("a", {1, 2}, {1, 2})
      .Input<int64_t>("b", {2, 2}, {3, 4, 5, 6})
      .Output<int64_t>("c", {3, 2}, {1, 2, 3, 4, 5, 6})
      .Run();
  OpTester("Concat", 13)
      .AttrInt("axis", 0)
      .Input<int64_t>("a", {1}, {7})
      .Input<int64_t>("b", {0}, {})
      .ConstantInput<int64_t>("c", {2}, {8, 9})
      .Output<int64_t>("d", {3}, {7, 8, 9})
      .Run();
}

TEST_CASE("Concat at 2 threads copies long runs in pieces", "[tensor][Concat]") {
  // Each image's slab of `a` is 2 x 20000 contiguous floats (over 64 KB: several pieces), at
  // batch 1 (one run per input) and batch 2 (runs at offsets in both tensors).
  for (const int64_t batch : {int64_t{1}, int64_t{2}}) {
    constexpr int64_t kWidth = 20000;
    std::vector<float> a(static_cast<size_t>(batch * 2 * kWidth));
    std::vector<float> b(static_cast<size_t>(batch * kWidth));
    std::iota(a.begin(), a.end(), 0.0f);
    std::iota(b.begin(), b.end(), -1e6f);
    std::vector<float> c;
    for (int64_t n = 0; n < batch; ++n) {
      c.insert(c.end(), a.begin() + n * 2 * kWidth, a.begin() + (n + 1) * 2 * kWidth);
      c.insert(c.end(), b.begin() + n * kWidth, b.begin() + (n + 1) * kWidth);
    }
    OpTester("Concat", 13)
        .AttrInt("axis", 1)
        .Threads(2)
        .Input<float>("a", {batch, 2, kWidth}, a)
        .Input<float>("b", {batch, 1, kWidth}, b)
        .Output<float>("c", {batch, 3, kWidth}, c)
        .Run();
  }
}

TEST_CASE("Concat of strings, a single input and opset 1 default axis", "[tensor][Concat]") {
  OpTester("Concat", 11)
      .AttrInt("axis", 0)
      .Input<std::string>("a", {1}, {"x"})
      .Input<std::string>("b", {2}, {"y", "z"})
      .Output<std::string>("c", {3}, {"x", "y", "z"})
      .Run();
  OpTester("Concat", 13)
      .AttrInt("axis", 0)
      .Input<float>("a", {2}, {1, 2})
      .Output<float>("c", {2}, {1, 2})
      .Run();
  OpTester("Concat", 1)
      .Input<float>("a", {1, 1}, {1})
      .Input<float>("b", {1, 1}, {2})
      .Output<float>("c", {1, 2}, {1, 2})
      .Run();
}

TEST_CASE("Concat rejects mismatched inputs", "[tensor][Concat]") {
  OpTester("Concat", 13)
      .AttrInt("axis", 0)
      .Input<float>("a", {1, 2}, {1, 2})
      .Input<float>("b", {1, 3}, {3, 4, 5})
      .Output<float>("c", {2, 2}, {1, 2, 3, 4})
      .RunExpectingError("cannot concatenate");
  OpTester("Concat", 13)
      .AttrInt("axis", 2)
      .Input<float>("a", {1, 2}, {1, 2})
      .Output<float>("c", {1, 2}, {1, 2})
      .RunExpectingError("out of range");
  OpTester("Concat", 13)
      .AttrInt("axis", 0)
      .Input<float>("a", {}, {1})
      .Input<float>("b", {}, {2})
      .Output<float>("c", {2}, {1, 2})
      .RunExpectingError("scalars");
}

TEST_CASE("Split into equal parts by default", "[tensor][Split]") {
  OpTester("Split", 13)
      .AttrInt("axis", 1)
      .Input<float>("x", {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})
      .Output<float>("a", {2, 2}, {1, 2, 5, 6})
      .Output<float>("b", {2, 2}, {3, 4, 7, 8})
      .Run();
  OpTester("Split", 13)
      .Input<float>("x", {3}, {1, 2, 3})
      .Output<float>("a", {2}, {1, 2})
      .Output<float>("b", {1}, {3})
      .RunExpectingError("equal parts");
}

TEST_CASE("Split lengths from the attribute or the input", "[tensor][Split]") {
  OpTester("Split", 11)
      .AttrInt("axis", -1)
      .AttrInts("split", {1, 3})
      .Input<int32_t>("x", {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})
      .Output<int32_t>("a", {2, 1}, {1, 5})
      .Output<int32_t>("b", {2, 3}, {2, 3, 4, 6, 7, 8})
      .Run();
  OpTester("Split", 13)
      .Input<std::string>("x", {3}, {"a", "b", "c"})
      .Input<int64_t>("split", {3}, {2, 0, 1})
      .Output<std::string>("p", {2}, {"a", "b"})
      .Output<std::string>("q", {0}, {})
      .Output<std::string>("r", {1}, {"c"})
      .Run();
  OpTester("Split", 13)
      .Input<float>("x", {3}, {1, 2, 3})
      .Input<int64_t>("split", {2}, {1, 1})
      .Output<float>("a", {1}, {1})
      .Output<float>("b", {1}, {2})
      .RunExpectingError("sum to 2");
  OpTester("Split", 13)
      .Input<float>("x", {3}, {1, 2, 3})
      .Input<int64_t>("split", {1}, {3})
      .Output<float>("a", {1}, {1})
      .Output<float>("b", {1}, {2})
      .RunExpectingError("2 outputs");
}

TEST_CASE("Split with num_outputs makes the last part shorter", "[tensor][Split]") {
  OpTester("Split", 18)
      .AttrInt("num_outputs", 3)
      .Input<float>("x", {7}, {1, 2, 3, 4, 5, 6, 7})
      .Output<float>("a", {3}, {1, 2, 3})
      .Output<float>("b", {3}, {4, 5, 6})
      .Output<float>("c", {1}, {7})
      .Run();
  OpTester("Split", 18)
      .AttrInt("num_outputs", 2)
      .Input<float>("x", {4}, {1, 2, 3, 4})
      .Output<float>("a", {2}, {1, 2})
      .Output<float>("b", {2}, {3, 4})
      .Output<float>("c", {0}, {})
      .RunExpectingError("num_outputs is 2");
}

TEST_CASE("Slice opset 1 takes attributes", "[tensor][Slice]") {
  // x = np.arange(20).reshape(4, 5); x[1:3, 0:5].
  std::vector<float> x(20);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  OpTester("Slice", 1)
      .AttrInts("starts", {1, 0})
      .AttrInts("ends", {3, 5})
      .Input<float>("x", {4, 5}, x)
      .Output<float>("y", {2, 5}, {5, 6, 7, 8, 9, 10, 11, 12, 13, 14})
      .Run();
  OpTester("Slice", 1)
      .AttrInts("starts", {-2})
      .AttrInts("ends", {1000})
      .AttrInts("axes", {1})
      .Input<float>("x", {4, 5}, x)
      .Output<float>("y", {4, 2}, {3, 4, 8, 9, 13, 14, 18, 19})
      .Run();
}

TEST_CASE("Slice with steps, negative steps and clamping", "[tensor][Slice]") {
  // Expected values from numpy slicing of np.arange(20).reshape(4, 5).
  std::vector<int32_t> x(20);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i);
  OpTester("Slice", 13)
      .Input<int32_t>("x", {4, 5}, x)
      .Input<int64_t>("starts", {2}, {1, 0})
      .Input<int64_t>("ends", {2}, {3, 5})
      .Input<int64_t>("axes", {2}, {0, 1})
      .Input<int64_t>("steps", {2}, {1, 2})
      .Output<int32_t>("y", {2, 3}, {5, 7, 9, 10, 12, 14})
      .Run();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  OpTester("Slice", 13)  // x[::-1, -1:-6:-2]
      .Input<int32_t>("x", {4, 5}, x)
      .Input<int64_t>("starts", {2}, {-1, -1})
      .Input<int64_t>("ends", {2}, {kMin, -6})
      .Input<int64_t>("axes", {2}, {0, -1})
      .Input<int64_t>("steps", {2}, {-1, -2})
      .Output<int32_t>("y", {4, 3}, {19, 17, 15, 14, 12, 10, 9, 7, 5, 4, 2, 0})
      .Run();
  OpTester("Slice", 13)  // x[-100:100, 3:1:-1]
      .Input<int32_t>("x", {4, 5}, x)
      .Input<int32_t>("starts", {2}, {-100, 3})
      .Input<int32_t>("ends", {2}, {100, 1})
      .Input<int32_t>("axes", {2}, {0, 1})
      .Input<int32_t>("steps", {2}, {1, -1})
      .Output<int32_t>("y", {4, 2}, {3, 2, 8, 7, 13, 12, 18, 17})
      .Run();
  OpTester("Slice", 13)  // x[:, 4:], default axes and steps
      .Input<int32_t>("x", {4, 5}, x)
      .Input<int64_t>("starts", {2}, {0, 4})
      .Input<int64_t>("ends", {2}, {kMax, kMax})
      .Output<int32_t>("y", {4, 1}, {4, 9, 14, 19})
      .Run();
  OpTester("Slice", 13)  // x[3:-100:-2, :]
      .Input<int32_t>("x", {4, 5}, x)
      .Input<int64_t>("starts", {1}, {3})
      .Input<int64_t>("ends", {1}, {-100})
      .Input<int64_t>("axes", {1}, {0})
      .Input<int64_t>("steps", {1}, {-2})
      .Output<int32_t>("y", {2, 5}, {15, 16, 17, 18, 19, 5, 6, 7, 8, 9})
      .Run();
  OpTester("Slice", 13)  // empty result and huge step
      .Input<int32_t>("x", {4, 5}, x)
      .Input<int64_t>("starts", {2}, {2, 1})
      .Input<int64_t>("ends", {2}, {2, 5})
      .Input<int64_t>("axes", {2}, {0, 1})
      .Input<int64_t>("steps", {2}, {1, kMax})
      .Output<int32_t>("y", {0, 1}, {})
      .Run();
}

TEST_CASE("Slice rejects invalid parameters", "[tensor][Slice]") {
  OpTester("Slice", 13)
      .Input<float>("x", {3}, {1, 2, 3})
      .Input<int64_t>("starts", {1}, {0})
      .Input<int64_t>("ends", {1}, {3})
      .Input<int64_t>("axes", {1}, {0})
      .Input<int64_t>("steps", {1}, {0})
      .Output<float>("y", {3}, {1, 2, 3})
      .RunExpectingError("steps must not be 0");
  OpTester("Slice", 13)
      .Input<float>("x", {3, 1}, {1, 2, 3})
      .Input<int64_t>("starts", {2}, {0, 0})
      .Input<int64_t>("ends", {2}, {3, 3})
      .Input<int64_t>("axes", {2}, {0, -2})
      .Output<float>("y", {3, 1}, {1, 2, 3})
      .RunExpectingError("repeated");
  OpTester("Slice", 13)
      .Input<float>("x", {3}, {1, 2, 3})
      .Input<int64_t>("starts", {1}, {0})
      .Input<int64_t>("ends", {2}, {3, 3})
      .Output<float>("y", {3}, {1, 2, 3})
      .RunExpectingError("same length");
  OpTester("Slice", 13)
      .Input<float>("x", {3}, {1, 2, 3})
      .Input<int64_t>("starts", {1}, {0})
      .Input<int64_t>("ends", {1}, {3})
      .Input<int64_t>("axes", {1}, {1})
      .Output<float>("y", {3}, {1, 2, 3})
      .RunExpectingError("out of range");
}

}  // namespace ort::test
