#include <catch2/catch.hpp>

#include <vector>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Gather selects rows with negative indices", "[tensor][Gather]") {
  OpTester("Gather", 13)
      .Input<float>("data", {3, 2}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("indices", {2, 2}, {0, 2, -1, 1})
      .Output<float>("y", {2, 2, 2}, {1, 2, 5, 6, 5, 6, 3, 4})
      .Run();
  // np.take(np.arange(12).reshape(3, 4), [[2, -1], [0, 1]], axis=1)
  OpTester("Gather", 13)
      .AttrInt("axis", 1)
      .Input<float>("data", {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
      .Input<int32_t>("indices", {2, 2}, {2, -1, 0, 1})
      .Output<float>("y", {3, 2, 2}, {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9})
      .Run();
}

TEST_CASE("Gather with scalar indices, strings and empty inputs", "[tensor][Gather]") {
  OpTester("Gather", 1)
      .Input<std::string>("data", {3}, {"a", "b", "c"})
      .Input<int64_t>("indices", {}, {1})
      .Output<std::string>("y", {}, {"b"})
      .Run();
  OpTester("Gather", 13)
      .AttrInt("axis", -1)
      .Input<int64_t>("data", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("indices", {0}, {})
      .Output<int64_t>("y", {2, 0}, {})
      .Run();
  OpTester("Gather", 13)
      .Input<float>("data", {0, 3}, {})
      .Input<int64_t>("indices", {0}, {})
      .Output<float>("y", {0, 3}, {})
      .Run();
}

TEST_CASE("Gather rejects out-of-range indices", "[tensor][Gather]") {
  OpTester("Gather", 13)
      .Input<float>("data", {3}, {1, 2, 3})
      .Input<int64_t>("indices", {1}, {3})
      .Output<float>("y", {1}, {0})
      .RunExpectingError("out of range");
  OpTester("Gather", 13)
      .Input<float>("data", {3}, {1, 2, 3})
      .Input<int32_t>("indices", {1}, {-4})
      .Output<float>("y", {1}, {0})
      .RunExpectingError("out of range");
}

TEST_CASE("Gather splits large gathers across threads", "[tensor][Gather]") {
  const int64_t vocab = 50, hidden = 64, tokens = 40;
  std::vector<float> table(static_cast<size_t>(vocab * hidden));
  for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<float>(i);
  std::vector<int64_t> ids(static_cast<size_t>(tokens));
  std::vector<float> expected;
  for (int64_t t = 0; t < tokens; ++t) {
    ids[static_cast<size_t>(t)] = (t * 7) % vocab;
    for (int64_t h = 0; h < hidden; ++h) {
      expected.push_back(table[static_cast<size_t>(ids[static_cast<size_t>(t)] * hidden + h)]);
    }
  }
  OpTester("Gather", 13)
      .Input<float>("data", {vocab, hidden}, table)
      .Input<int64_t>("indices", {tokens}, ids)
      .Output<float>("y", {tokens, hidden}, expected)
      .Threads(2)
      .Run();
}

TEST_CASE("GatherElements picks along an axis", "[tensor][GatherElements]") {
  // np.take_along_axis(a, idx, axis).
  OpTester("GatherElements", 13)
      .Input<int32_t>("data", {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})
      .Input<int64_t>("indices", {2, 3}, {1, 2, 0, 2, 0, 0})
      .Output<int32_t>("y", {2, 3}, {4, 8, 3, 7, 2, 3})
      .Run();
  OpTester("GatherElements", 11)
      .AttrInt("axis", -1)
      .Input<float>("data", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int32_t>("indices", {2, 2}, {-1, 0, 1, 1})
      .Output<float>("y", {2, 2}, {3, 1, 5, 5})
      .Run();
  OpTester("GatherElements", 13)
      .Input<float>("data", {2, 2}, {1, 2, 3, 4})
      .Input<int64_t>("indices", {1, 1}, {2})
      .Output<float>("y", {1, 1}, {0})
      .RunExpectingError("out of range");
  OpTester("GatherElements", 13)
      .Input<float>("data", {2, 2}, {1, 2, 3, 4})
      .Input<int64_t>("indices", {1, 3}, {0, 0, 0})
      .Output<float>("y", {1, 3}, {0, 0, 0})
      .RunExpectingError("exceed data");
}

TEST_CASE("GatherND with and without batch_dims", "[tensor][GatherND]") {
  OpTester("GatherND", 13)
      .Input<float>("data", {2, 2}, {0, 1, 2, 3})
      .Input<int64_t>("indices", {2, 2}, {0, 0, 1, -1})
      .Output<float>("y", {2}, {0, 3})
      .Run();
  OpTester("GatherND", 13)
      .Input<int32_t>("data", {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})
      .Input<int64_t>("indices", {2, 1, 2}, {0, 1, 1, 0})
      .Output<int32_t>("y", {2, 1, 2}, {2, 3, 4, 5})
      .Run();
  OpTester("GatherND", 12)
      .AttrInt("batch_dims", 1)
      .Input<int32_t>("data", {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})
      .Input<int64_t>("indices", {2, 1}, {1, 0})
      .Output<int32_t>("y", {2, 2}, {2, 3, 4, 5})
      .Run();
  OpTester("GatherND", 13)
      .Input<float>("data", {2, 2}, {0, 1, 2, 3})
      .Input<int64_t>("indices", {1, 2}, {0, 2})
      .Output<float>("y", {1}, {0})
      .RunExpectingError("out of range");
  OpTester("GatherND", 13)
      .Input<float>("data", {2, 2}, {0, 1, 2, 3})
      .Input<int64_t>("indices", {1, 3}, {0, 0, 0})
      .Output<float>("y", {1}, {0})
      .RunExpectingError("index 3 axes");
}

TEST_CASE("ScatterND replaces and reduces slices", "[tensor][ScatterND]") {
  OpTester("ScatterND", 13)
      .Input<float>("data", {8}, {1, 2, 3, 4, 5, 6, 7, 8})
      .Input<int64_t>("indices", {4, 1}, {4, 3, 1, 7})
      .Input<float>("updates", {4}, {9, 10, 11, 12})
      .Output<float>("y", {8}, {1, 11, 3, 10, 9, 6, 7, 12})
      .Run();
  OpTester("ScatterND", 16)
      .AttrString("reduction", "add")
      .Input<int64_t>("data", {2, 2}, {1, 2, 3, 4})
      .Input<int64_t>("indices", {2, 1}, {1, -1})
      .Input<int64_t>("updates", {2, 2}, {10, 20, 30, 40})
      .Output<int64_t>("y", {2, 2}, {1, 2, 43, 64})
      .Run();
  OpTester("ScatterND", 16)
      .AttrString("reduction", "mul")
      .Input<float>("data", {3}, {1, 2, 3})
      .Input<int64_t>("indices", {2, 1}, {0, 0})
      .Input<float>("updates", {2}, {5, 2})
      .Output<float>("y", {3}, {10, 2, 3})
      .Run();
  OpTester("ScatterND", 18)
      .AttrString("reduction", "max")
      .Input<float>("data", {3}, {1, 5, 3})
      .Input<int64_t>("indices", {2, 1}, {1, 2})
      .Input<float>("updates", {2}, {4, 4})
      .Output<float>("y", {3}, {1, 5, 4})
      .Run();
  OpTester("ScatterND", 18)
      .AttrString("reduction", "min")
      .Input<float>("data", {3}, {1, 5, 3})
      .Input<int64_t>("indices", {2, 1}, {1, 2})
      .Input<float>("updates", {2}, {4, 4})
      .Output<float>("y", {3}, {1, 4, 3})
      .Run();
  OpTester("ScatterND", 11)
      .Input<std::string>("data", {2}, {"a", "b"})
      .Input<int64_t>("indices", {1, 1}, {1})
      .Input<std::string>("updates", {1}, {"z"})
      .Output<std::string>("y", {2}, {"a", "z"})
      .Run();
}

TEST_CASE("ScatterND rejects bad indices and reductions", "[tensor][ScatterND]") {
  OpTester("ScatterND", 13)
      .Input<float>("data", {2}, {1, 2})
      .Input<int64_t>("indices", {1, 1}, {2})
      .Input<float>("updates", {1}, {5})
      .Output<float>("y", {2}, {1, 2})
      .RunExpectingError("out of range");
  OpTester("ScatterND", 13)
      .Input<float>("data", {2}, {1, 2})
      .Input<int64_t>("indices", {1, 1}, {0})
      .Input<float>("updates", {2}, {5, 6})
      .Output<float>("y", {2}, {1, 2})
      .RunExpectingError("do not match");
  OpTester("ScatterND", 16)
      .AttrString("reduction", "max")
      .Input<float>("data", {2}, {1, 2})
      .Input<int64_t>("indices", {1, 1}, {0})
      .Input<float>("updates", {1}, {5})
      .Output<float>("y", {2}, {1, 2})
      .RunExpectingError("unsupported reduction");
}

TEST_CASE("ScatterElements writes along an axis", "[tensor][ScatterElements]") {
  OpTester("ScatterElements", 13)
      .AttrInt("axis", 1)
      .Input<float>("data", {1, 5}, {1, 2, 3, 4, 5})
      .Input<int64_t>("indices", {1, 2}, {1, -2})
      .Input<float>("updates", {1, 2}, {11, 21})
      .Output<float>("y", {1, 5}, {1, 11, 3, 21, 5})
      .Run();
  OpTester("ScatterElements", 13)
      .Input<int32_t>("data", {3, 2}, {0, 0, 0, 0, 0, 0})
      .Input<int32_t>("indices", {2, 2}, {1, 0, 2, 1})
      .Input<int32_t>("updates", {2, 2}, {1, 2, 3, 4})
      .Output<int32_t>("y", {3, 2}, {0, 2, 1, 4, 3, 0})
      .Run();
  OpTester("ScatterElements", 16)
      .AttrString("reduction", "add")
      .AttrInt("axis", 1)
      .Input<float>("data", {1, 3}, {1, 2, 3})
      .Input<int64_t>("indices", {1, 2}, {1, 1})
      .Input<float>("updates", {1, 2}, {1.5f, 2.5f})
      .Output<float>("y", {1, 3}, {1, 6, 3})
      .Run();
  OpTester("ScatterElements", 18)
      .AttrString("reduction", "min")
      .Input<Float16>("data", {2}, {Float16(1.0f), Float16(2.0f)})
      .Input<int64_t>("indices", {2}, {0, 1})
      .Input<Float16>("updates", {2}, {Float16(0.5f), Float16(3.0f)})
      .Output<Float16>("y", {2}, {Float16(0.5f), Float16(2.0f)})
      .Run();
  // Indices narrower than the data along the other axes, scattering along a middle axis and
  // along the last.
  const std::vector<float> minus_ones(24, -1.0f);
  OpTester("ScatterElements", 13)
      .AttrInt("axis", 1)
      .Input<float>("data", {2, 3, 4}, minus_ones)
      .Input<int64_t>("indices", {2, 2, 3}, {2, 0, 1, 1, 2, 0, 0, 0, 2, 2, 1, 1})
      .Input<float>("updates", {2, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
      .Output<float>("y", {2, 3, 4}, {-1, 2, 6,  -1, 4,  -1, 3,  -1, 1,  5,  -1, -1,
                                      7,  8, -1, -1, -1, 11, 12, -1, 10, -1, 9,  -1})
      .Run();
  std::vector<float> last_axis = minus_ones;
  last_axis[3] = 1;
  last_axis[0] = 2;
  last_axis[5] = 3;
  last_axis[7] = 4;
  OpTester("ScatterElements", 13)
      .AttrInt("axis", 2)
      .Input<float>("data", {2, 3, 4}, minus_ones)
      .Input<int64_t>("indices", {1, 2, 2}, {3, 0, 1, -1})
      .Input<float>("updates", {1, 2, 2}, {1, 2, 3, 4})
      .Output<float>("y", {2, 3, 4}, last_axis)
      .Run();
  OpTester("Scatter", 9)
      .Input<std::string>("data", {3}, {"a", "b", "c"})
      .Input<int64_t>("indices", {1}, {2})
      .Input<std::string>("updates", {1}, {"z"})
      .Output<std::string>("y", {3}, {"a", "b", "z"})
      .Run();
  OpTester("ScatterElements", 13)
      .Input<float>("data", {2}, {1, 2})
      .Input<int64_t>("indices", {1}, {-3})
      .Input<float>("updates", {1}, {5})
      .Output<float>("y", {2}, {1, 2})
      .RunExpectingError("out of range");
  OpTester("ScatterElements", 13)
      .Input<float>("data", {2}, {1, 2})
      .Input<int64_t>("indices", {1}, {0})
      .Input<float>("updates", {2}, {5, 6})
      .Output<float>("y", {2}, {1, 2})
      .RunExpectingError("must match");
}

}  // namespace ort::test
