// Compress, NonZero, Unique, ReverseSequence, Trilu, OneHot, TopK.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Compress along an axis and flattened", "[tensor][Compress]") {
  OpTester("Compress", 11)
      .AttrInt("axis", 0)
      .Input<float>("x", {3, 2}, {1, 2, 3, 4, 5, 6})
      .Input<bool>("condition", {3}, {false, true, true})
      .Output<float>("y", {2, 2}, {3, 4, 5, 6})
      .Run();
  OpTester("Compress", 11)
      .AttrInt("axis", -1)
      .Input<std::string>("x", {2, 2}, {"a", "b", "c", "d"})
      .Input<bool>("condition", {1}, {true})
      .Output<std::string>("y", {2, 1}, {"a", "c"})
      .Run();
  OpTester("Compress", 9)
      .Input<int32_t>("x", {3, 2}, {1, 2, 3, 4, 5, 6})
      .Input<bool>("condition", {5}, {true, false, true, false, true})
      .Output<int32_t>("y", {3}, {1, 3, 5})
      .Run();
  OpTester("Compress", 11)
      .AttrInt("axis", 0)
      .Input<float>("x", {1, 2}, {1, 2})
      .Input<bool>("condition", {2}, {false, true})
      .Output<float>("y", {1, 2}, {1, 2})
      .RunExpectingError("beyond the axis");
}

TEST_CASE("NonZero lists coordinates in row-major order", "[tensor][NonZero]") {
  OpTester("NonZero", 13)
      .Input<float>("x", {2, 3}, {0, 1, 0, 2, 0, 3})
      .Output<int64_t>("y", {2, 3}, {0, 1, 1, 1, 0, 2})
      .Run();
  OpTester("NonZero", 9)
      .Input<bool>("x", {3}, {false, false, false})
      .Output<int64_t>("y", {1, 0}, {})
      .Run();
  OpTester("NonZero", 13)
      .Input<std::string>("x", {2}, {"", "x"})
      .Output<int64_t>("y", {1, 1}, {1})
      .Run();
  OpTester("NonZero", 13).Input<int64_t>("x", {}, {5}).Output<int64_t>("y", {1, 1}, {0}).Run();
  OpTester("NonZero", 13)
      .Input<Float16>("x", {2}, {Float16(-0.0f), Float16(0.5f)})
      .Output<int64_t>("y", {1, 1}, {1})
      .Run();
}

TEST_CASE("Unique without an axis, sorted and unsorted", "[tensor][Unique]") {
  // np.unique([2, 1, 1, 3, 4, 3], return_index, return_inverse, return_counts)
  OpTester("Unique", 11)
      .Input<int64_t>("x", {6}, {2, 1, 1, 3, 4, 3})
      .Output<int64_t>("y", {4}, {1, 2, 3, 4})
      .Output<int64_t>("indices", {4}, {1, 0, 3, 4})
      .Output<int64_t>("inverse", {6}, {1, 0, 0, 2, 3, 2})
      .Output<int64_t>("counts", {4}, {2, 1, 2, 1})
      .Run();
  OpTester("Unique", 11)
      .AttrInt("sorted", 0)
      .Input<float>("x", {2, 3}, {2, 1, 1, 3, 4, 3})
      .Output<float>("y", {4}, {2, 1, 3, 4})
      .Output<int64_t>("indices", {4}, {0, 1, 3, 4})
      .Output<int64_t>("inverse", {6}, {0, 1, 1, 2, 3, 2})
      .Output<int64_t>("counts", {4}, {1, 2, 2, 1})
      .Run();
  OpTester("Unique", 11)
      .Input<std::string>("x", {3}, {"b", "a", "b"})
      .Output<std::string>("y", {2}, {"a", "b"})
      .Run();
  OpTester("Unique", 11)
      .Input<float>("x", {0}, {})
      .Output<float>("y", {0}, {})
      .OmittedOutput()
      .Output<int64_t>("inverse", {0}, {})
      .Run();
}

TEST_CASE("Unique slices along an axis", "[tensor][Unique]") {
  // np.unique(x, axis=0) and axis=1 with the index outputs.
  const std::vector<int32_t> x = {1, 0, 0, 1, 0, 0, 2, 3, 4};
  OpTester("Unique", 11)
      .AttrInt("axis", 0)
      .Input<int32_t>("x", {3, 3}, x)
      .Output<int32_t>("y", {2, 3}, {1, 0, 0, 2, 3, 4})
      .Output<int64_t>("indices", {2}, {0, 2})
      .Output<int64_t>("inverse", {3}, {0, 0, 1})
      .Output<int64_t>("counts", {2}, {2, 1})
      .Run();
  OpTester("Unique", 11)
      .AttrInt("axis", -1)
      .Input<int32_t>("x", {3, 3}, x)
      .Output<int32_t>("y", {3, 3}, {0, 0, 1, 0, 0, 1, 3, 4, 2})
      .Output<int64_t>("indices", {3}, {1, 2, 0})
      .Output<int64_t>("inverse", {3}, {2, 0, 1})
      .Output<int64_t>("counts", {3}, {1, 1, 1})
      .Run();
  OpTester("Unique", 11)
      .AttrInt("axis", 2)
      .Input<int32_t>("x", {3, 3}, x)
      .Output<int32_t>("y", {3, 3}, x)
      .RunExpectingError("out of range");
}

TEST_CASE("ReverseSequence reverses each batch prefix", "[tensor][ReverseSequence]") {
  OpTester("ReverseSequence", 10)
      .Input<float>("x", {4, 2}, {0, 1, 2, 3, 4, 5, 6, 7})
      .Input<int64_t>("lens", {2}, {4, 2})
      .Output<float>("y", {4, 2}, {6, 3, 4, 1, 2, 5, 0, 7})
      .Run();
  OpTester("ReverseSequence", 10)
      .AttrInt("batch_axis", 0)
      .AttrInt("time_axis", 1)
      .Input<int32_t>("x", {2, 3, 1}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("lens", {2}, {3, 0})
      .Output<int32_t>("y", {2, 3, 1}, {3, 2, 1, 4, 5, 6})
      .Run();
  OpTester("ReverseSequence", 10)
      .Input<float>("x", {2, 1}, {1, 2})
      .Input<int64_t>("lens", {1}, {3})
      .Output<float>("y", {2, 1}, {1, 2})
      .RunExpectingError("outside [0, 2]");
}

TEST_CASE("Trilu keeps a triangle", "[tensor][Trilu]") {
  // np.triu(x, 1), np.tril(x, -1), np.triu(x, -1) for x = np.arange(12).reshape(3, 4).
  std::vector<int64_t> x(12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int64_t>(i);
  OpTester("Trilu", 14)
      .Input<int64_t>("x", {3, 4}, x)
      .Input<int64_t>("k", {}, {1})
      .Output<int64_t>("y", {3, 4}, {0, 1, 2, 3, 0, 0, 6, 7, 0, 0, 0, 11})
      .Run();
  OpTester("Trilu", 14)
      .AttrInt("upper", 0)
      .Input<int64_t>("x", {3, 4}, x)
      .Input<int64_t>("k", {}, {-1})
      .Output<int64_t>("y", {3, 4}, {0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0})
      .Run();
  OpTester("Trilu", 14)
      .Input<int64_t>("x", {1, 3, 4}, x)
      .Input<int64_t>("k", {}, {-1})
      .Output<int64_t>("y", {1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11})
      .Run();
  OpTester("Trilu", 14)
      .AttrInt("upper", 0)
      .Input<std::string>("x", {2, 2}, {"a", "b", "c", "d"})
      .Output<std::string>("y", {2, 2}, {"a", "", "c", "d"})
      .Run();
  OpTester("Trilu", 14)
      .Input<float>("x", {2, 2}, {1, 2, 3, 4})
      .Input<int64_t>("k", {}, {std::numeric_limits<int64_t>::min()})
      .Output<float>("y", {2, 2}, {1, 2, 3, 4})
      .Run();
  OpTester("Trilu", 14)
      .Input<float>("x", {2}, {1, 2})
      .Output<float>("y", {2}, {1, 2})
      .RunExpectingError("rank >= 2");
}

TEST_CASE("OneHot places on_value at each index", "[tensor][OneHot]") {
  OpTester("OneHot", 11)
      .Input<int64_t>("indices", {4}, {0, 2, -1, 5})
      .Input<float>("depth", {}, {3})
      .Input<float>("values", {2}, {0, 1})
      .Output<float>("y", {4, 3}, {1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0})
      .Run();
  OpTester("OneHot", 11)
      .AttrInt("axis", 0)
      .Input<float>("indices", {4}, {0, 2, -1, 5})
      .Input<int32_t>("depth", {1}, {3})
      .Input<int64_t>("values", {2}, {2, 7})
      .Output<int64_t>("y", {3, 4}, {7, 2, 2, 2, 2, 2, 2, 2, 2, 7, 7, 2})
      .Run();
  OpTester("OneHot", 9)
      .Input<int32_t>("indices", {2}, {1, 0})
      .Input<int64_t>("depth", {}, {2})
      .Input<std::string>("values", {2}, {"off", "on"})
      .Output<std::string>("y", {2, 2}, {"off", "on", "on", "off"})
      .Run();
  OpTester("OneHot", 11)
      .Input<int64_t>("indices", {1}, {0})
      .Input<int64_t>("depth", {}, {0})
      .Input<float>("values", {2}, {0, 1})
      .Output<float>("y", {1, 0}, {})
      .RunExpectingError("depth must be positive");
}

TEST_CASE("TopK largest and smallest with stable ties", "[tensor][TopK]") {
  const std::vector<float> x = {3, 1, 2, 1, 5, 5, 0, 9};
  OpTester("TopK", 11)
      .Input<float>("x", {2, 4}, x)
      .Input<int64_t>("k", {1}, {2})
      .Output<float>("values", {2, 2}, {3, 2, 9, 5})
      .Output<int64_t>("indices", {2, 2}, {0, 2, 3, 0})
      .Run();
  OpTester("TopK", 11)
      .AttrInt("largest", 0)
      .Input<float>("x", {2, 4}, x)
      .Input<int64_t>("k", {1}, {3})
      .Output<float>("values", {2, 3}, {1, 1, 2, 0, 5, 5})
      .Output<int64_t>("indices", {2, 3}, {1, 3, 2, 2, 0, 1})
      .Run();
  OpTester("TopK", 1)
      .AttrInt("k", 1)
      .AttrInt("axis", 0)
      .Input<float>("x", {2, 4}, x)
      .Output<float>("values", {1, 4}, {5, 5, 2, 9})
      .Output<int64_t>("indices", {1, 4}, {1, 1, 0, 1})
      .Run();
  OpTester("TopK", 11)
      .Input<int32_t>("x", {3}, {4, 7, 4})
      .Input<int64_t>("k", {1}, {0})
      .Output<int32_t>("values", {0}, {})
      .Output<int64_t>("indices", {0}, {})
      .Run();
  OpTester("TopK", 11)
      .Input<float>("x", {3}, {1, NAN, 2})
      .Input<int64_t>("k", {1}, {2})
      .Output<float>("values", {2}, {NAN, 2})
      .Output<int64_t>("indices", {2}, {1, 2})
      .Run();
  OpTester("TopK", 10)
      .Input<float>("x", {3}, {1, 2, 3})
      .Input<int64_t>("k", {1}, {4})
      .Output<float>("values", {3}, {3, 2, 1})
      .Output<int64_t>("indices", {3}, {2, 1, 0})
      .RunExpectingError("outside [0, 3]");
}

}  // namespace ort::test
