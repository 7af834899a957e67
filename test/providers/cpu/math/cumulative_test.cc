#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("CumSum: axis input, exclusive, reverse", "[math][CumSum]") {
  const std::vector<int64_t> x = {1, 2, 3, 4, 5, 6};
  OpTester("CumSum", 14)
      .Input<int64_t>("x", {2, 3}, x)
      .Input<int32_t>("axis", {}, {1})
      .Output<int64_t>("y", {2, 3}, {1, 3, 6, 4, 9, 15})
      .Run();
  OpTester("CumSum", 14)
      .Input<int64_t>("x", {2, 3}, x)
      .Input<int64_t>("axis", {}, {-2})
      .Output<int64_t>("y", {2, 3}, {1, 2, 3, 5, 7, 9})
      .Run();
  OpTester("CumSum", 11)
      .AttrInt("exclusive", 1)
      .Input<float>("x", {5}, {1, 2, 3, 4, 5})
      .Input<int64_t>("axis", {}, {0})
      .Output<float>("y", {5}, {0, 1, 3, 6, 10})
      .Run();
  OpTester("CumSum", 11)
      .AttrInt("reverse", 1)
      .Input<double>("x", {5}, {1, 2, 3, 4, 5})
      .Input<int64_t>("axis", {1}, {0})
      .Output<double>("y", {5}, {15, 14, 12, 9, 5})
      .Run();
  OpTester("CumSum", 11)
      .AttrInt("reverse", 1)
      .AttrInt("exclusive", 1)
      .Input<int32_t>("x", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<int64_t>("axis", {}, {1})
      .Output<int32_t>("y", {2, 3}, {5, 3, 0, 11, 6, 0})
      .Run();
  OpTester("CumSum", 14)
      .Input<Float16>("x", {3}, {Float16(0.5f), Float16(1.0f), Float16(2.0f)})
      .Input<int64_t>("axis", {}, {0})
      .Output<Float16>("y", {3}, {Float16(0.5f), Float16(1.5f), Float16(3.5f)})
      .Run();
  OpTester("CumSum", 14)
      .Input<float>("x", {2}, {1, 2})
      .Input<int64_t>("axis", {}, {2})
      .Output<float>("y", {2}, {1, 3})
      .RunExpectingError("axis");
  OpTester("CumSum", 14)
      .Input<float>("x", {0, 2}, {})
      .Input<int64_t>("axis", {}, {0})
      .Output<float>("y", {0, 2}, {})
      .Run();
}

// numpy: np.cumprod along axis 1; exclusive shifts by one (starting at 1), reverse runs from the
// end. 65536 * 65536 wraps to 0 in int32.
TEST_CASE("CumProd: axis input, exclusive, reverse, wrapping integers", "[math][CumProd]") {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  OpTester("CumProd", 26)
      .Input<float>("x", {2, 3}, x)
      .Input<int64_t>("axis", {}, {1})
      .Output<float>("y", {2, 3}, {1, 2, 6, 4, 20, 120})
      .Run();
  OpTester("CumProd", 26)
      .AttrInt("exclusive", 1)
      .AttrInt("reverse", 1)
      .Input<float>("x", {2, 3}, x)
      .Input<int32_t>("axis", {}, {-1})
      .Output<float>("y", {2, 3}, {6, 3, 1, 30, 6, 1})
      .Run();
  OpTester("CumProd", 26)
      .Input<int32_t>("x", {3}, {65536, 65536, 7})
      .Input<int64_t>("axis", {}, {0})
      .Output<int32_t>("y", {3}, {65536, 0, 0})
      .Run();
}

}  // namespace ort::test
