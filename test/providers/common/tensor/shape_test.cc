#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Shape with start and end, and Size", "[tensor][Shape][Size]") {
  OpTester("Shape", 13)
      .Input<float>("x", {2, 3, 4}, std::vector<float>(24, 0.0f))
      .Output<int64_t>("y", {3}, {2, 3, 4})
      .Run();
  OpTester("Shape", 15)
      .AttrInt("start", 1)
      .AttrInt("end", -1)
      .Input<float>("x", {2, 3, 4}, std::vector<float>(24, 0.0f))
      .Output<int64_t>("y", {1}, {3})
      .Run();
  OpTester("Shape", 15)
      .AttrInt("start", -10)
      .AttrInt("end", 10)
      .Input<float>("x", {2, 3}, std::vector<float>(6, 0.0f))
      .Output<int64_t>("y", {2}, {2, 3})
      .Run();
  OpTester("Shape", 15)
      .AttrInt("start", 2)
      .AttrInt("end", 1)
      .Input<std::string>("x", {2, 3}, std::vector<std::string>(6))
      .Output<int64_t>("y", {0}, {})
      .Run();
  OpTester("Shape", 1).Input<int8_t>("x", {}, {1}).Output<int64_t>("y", {0}, {}).Run();
  OpTester("Size", 13)
      .Input<float>("x", {2, 3}, std::vector<float>(6, 0.0f))
      .Output<int64_t>("y", {}, {6})
      .Run();
  OpTester("Size", 1).Input<bool>("x", {0, 4}, {}).Output<int64_t>("y", {}, {0}).Run();
}

}  // namespace ort::test
