// Expected values from numpy cosine-window formulas (pasted as literals).
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("HannWindow symmetric", "[signal][HannWindow]") {
  OpTester("HannWindow", 17)
      .AttrInt("periodic", 0)
      .Input<int64_t>("size", {}, {5})
      .Output<float>("y", {5}, {0, 0.5, 1, 0.5, 0})
      .Run();
}

TEST_CASE("HammingWindow periodic in double", "[signal][HammingWindow]") {
  OpTester("HammingWindow", 17)
      .AttrInt("output_datatype", static_cast<int64_t>(DataType::kDouble))
      .Input<int32_t>("size", {}, {5})
      .Output<double>("y", {5},
                      {0.086956521739130432, 0.40240528517665441, 0.91281210612769337,
                       0.91281210612769348, 0.40240528517665447})
      .SetTolerance(1e-12, 1e-12)
      .Run();
}

TEST_CASE("BlackmanWindow periodic, integer output and edge sizes", "[signal][BlackmanWindow]") {
  OpTester("BlackmanWindow", 17)
      .Input<int64_t>("size", {}, {5})
      .Output<float>(
          "y", {5},
          {0, 0.2007701432625304, 0.84922985673746942, 0.84922985673746965, 0.20077014326253051})
      .Run();
  OpTester("BlackmanWindow", 17)
      .AttrInt("output_datatype", static_cast<int64_t>(DataType::kInt32))
      .Input<int64_t>("size", {}, {5})
      .Output<int32_t>("y", {5}, {0, 0, 0, 0, 0})
      .Run();
  OpTester("HannWindow", 17).Input<int64_t>("size", {}, {0}).Output<float>("y", {0}, {}).Run();
  OpTester("HannWindow", 17)
      .AttrInt("periodic", 0)
      .Input<int64_t>("size", {}, {1})
      .Output<float>("y", {1}, {1})
      .Run();
  OpTester("HannWindow", 17)
      .Input<int64_t>("size", {}, {-1})
      .Output<float>("y", {0}, {})
      .RunExpectingError("must not be negative");
  OpTester("HannWindow", 17)
      .AttrInt("output_datatype", static_cast<int64_t>(DataType::kString))
      .Input<int64_t>("size", {}, {2})
      .Output<float>("y", {2}, {0, 0})
      .RunExpectingError("output_datatype");
}

TEST_CASE("MelWeightMatrix builds triangular filters", "[signal][MelWeightMatrix]") {
  OpTester("MelWeightMatrix", 17)
      .AttrInt("output_datatype", static_cast<int64_t>(DataType::kDouble))
      .Input<int64_t>("num_mel_bins", {}, {4})
      .Input<int64_t>("dft_length", {}, {32})
      .Input<int64_t>("sample_rate", {}, {16000})
      .Input<float>("lower_edge_hertz", {}, {100})
      .Input<float>("upper_edge_hertz", {}, {8000})
      .Output<double>(
          "output", {17, 4},
          {0, 0,       0,       0, 1, 0,       0,       0, 0, 1, 0, 0, 0, 0, 1,    0, 0,
           0, 2.0 / 3, 1.0 / 3, 0, 0, 1.0 / 3, 2.0 / 3, 0, 0, 0, 1, 0, 0, 0, 0.75, 0, 0,
           0, 0.5,     0,       0, 0, 0.25,    0,       0, 0, 0, 0, 0, 0, 0, 0,    0, 0,
           0, 0,       0,       0, 0, 0,       0,       0, 0, 0, 0, 0, 0, 0, 0,    0, 0})
      .Run();
  OpTester("MelWeightMatrix", 17)
      .Input<int64_t>("num_mel_bins", {}, {4})
      .Input<int64_t>("dft_length", {}, {32})
      .Input<int64_t>("sample_rate", {}, {16000})
      .Input<float>("lower_edge_hertz", {}, {900})
      .Input<float>("upper_edge_hertz", {}, {100})
      .Output<float>("output", {17, 4}, std::vector<float>(68, 0.0f))
      .RunExpectingError("lower_edge_hertz");
}

}  // namespace ort::test
