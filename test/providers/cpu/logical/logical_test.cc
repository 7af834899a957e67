#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("And, Or, Xor broadcast bools; Not negates", "[logical][And][Or][Xor][Not]") {
  const std::vector<bool> a = {true, true, false, false, true, false};
  const std::vector<bool> b = {true, false};
  OpTester("And", 7)
      .Input<bool>("a", {3, 2}, a)
      .Input<bool>("b", {2}, b)
      .Output<bool>("c", {3, 2}, {true, false, false, false, true, false})
      .Run();
  OpTester("Or", 7)
      .Input<bool>("a", {3, 2}, a)
      .Input<bool>("b", {2}, b)
      .Output<bool>("c", {3, 2}, {true, true, true, false, true, false})
      .Run();
  OpTester("Xor", 7)
      .Input<bool>("a", {3, 2}, a)
      .Input<bool>("b", {2}, b)
      .Output<bool>("c", {3, 2}, {false, true, true, false, false, false})
      .Run();
  OpTester("Not", 1)
      .Input<bool>("x", {3}, {true, false, true})
      .Output<bool>("y", {3}, {false, true, false})
      .Run();
}

TEST_CASE("And before opset 7 needs broadcast=1 and honours axis", "[logical][And]") {
  OpTester("And", 1)
      .AttrInt("broadcast", 1)
      .AttrInt("axis", 0)
      .Input<bool>("a", {2, 2}, {true, true, true, false})
      .Input<bool>("b", {2}, {false, true})
      .Output<bool>("c", {2, 2}, {false, false, true, false})
      .Run();
  OpTester("Or", 1)
      .Input<bool>("a", {2, 2}, {true, true, true, false})
      .Input<bool>("b", {2}, {false, true})
      .Output<bool>("c", {2, 2}, {true, true, true, true})
      .RunExpectingError("broadcast is not set");
  OpTester("And", 7)
      .Input<int32_t>("a", {1}, {1})
      .Input<int32_t>("b", {1}, {1})
      .Output<bool>("c", {1}, {true})
      .RunExpectingError("int32");
}

TEST_CASE("Comparisons broadcast numbers to bool", "[logical][Equal][Greater][Less]") {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6};
  const std::vector<float> b = {2, 5, 6};
  auto run = [&](const char* op, int opset, std::vector<bool> expected) {
    OpTester(op, opset)
        .Input<float>("a", {2, 3}, a)
        .Input<float>("b", {3}, b)
        .Output<bool>("c", {2, 3}, expected)
        .Run();
  };
  run("Equal", 13, {false, false, false, false, true, true});
  run("Greater", 13, {false, false, false, true, false, false});
  run("Less", 13, {true, true, true, false, false, false});
  run("GreaterOrEqual", 16, {false, false, false, true, true, true});
  run("LessOrEqual", 16, {true, true, true, false, true, true});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpTester("Equal", 13)
      .Input<float>("a", {2}, {nan, 0.0f})
      .Input<float>("b", {2}, {nan, -0.0f})
      .Output<bool>("c", {2}, {false, true})
      .Run();
}

TEST_CASE("Equal on integers, bools and strings", "[logical][Equal]") {
  OpTester("Equal", 11)
      .Input<int64_t>("a", {3}, {1, -2, 3})
      .Input<int64_t>("b", {}, {-2})
      .Output<bool>("c", {3}, {false, true, false})
      .Run();
  OpTester("Equal", 13)
      .Input<bool>("a", {2}, {true, false})
      .Input<bool>("b", {2}, {true, true})
      .Output<bool>("c", {2}, {true, false})
      .Run();
  OpTester("Equal", 19)
      .TensorInput("a", OpTester::MakeTensor<std::string>({3}, {"a", "bc", ""}))
      .TensorInput("b", OpTester::MakeTensor<std::string>({3}, {"a", "b", ""}))
      .Output<bool>("c", {3}, {true, false, true})
      .Run();
  OpTester("Greater", 9)
      .Input<uint8_t>("a", {2}, {200, 3})
      .Input<uint8_t>("b", {2}, {100, 4})
      .Output<bool>("c", {2}, {true, false})
      .Run();
  OpTester("Less", 13)
      .Input<float>("a", {2}, {1, 2})
      .Input<double>("b", {2}, {1, 2})
      .Output<bool>("c", {2}, {false, false})
      .RunExpectingError("different types");
}

TEST_CASE("Comparisons before opset 7 use the legacy broadcast", "[logical][Greater]") {
  OpTester("Greater", 1)
      .AttrInt("broadcast", 1)
      .Input<float>("a", {2, 2}, {1, 2, 3, 4})
      .Input<float>("b", {2}, {2, 2})
      .Output<bool>("c", {2, 2}, {false, false, true, true})
      .Run();
}

TEST_CASE("Where broadcasts condition, X and Y", "[logical][Where]") {
  OpTester("Where", 16)
      .Input<bool>("condition", {2, 1}, {true, false})
      .Input<float>("x", {3}, {1, 2, 3})
      .Input<float>("y", {2, 3}, {10, 20, 30, 40, 50, 60})
      .Output<float>("z", {2, 3}, {1, 2, 3, 40, 50, 60})
      .Run();
  OpTester("Where", 9)
      .Input<bool>("condition", {3}, {true, false, true})
      .Input<int64_t>("x", {}, {7})
      .Input<int64_t>("y", {}, {-1})
      .Output<int64_t>("z", {3}, {7, -1, 7})
      .Run();
  OpTester("Where", 16)
      .Input<bool>("condition", {2}, {false, true})
      .TensorInput("x", OpTester::MakeTensor<std::string>({2}, {"a", "b"}))
      .TensorInput("y", OpTester::MakeTensor<std::string>({1}, {"z"}))
      .TensorOutput("z", OpTester::MakeTensor<std::string>({2}, {"z", "b"}))
      .Run();
  OpTester("Where", 16)
      .Input<bool>("condition", {2}, {false, true})
      .Input<float>("x", {3}, {1, 2, 3})
      .Input<float>("y", {1}, {0})
      .Output<float>("z", {3}, {0, 0, 0})
      .RunExpectingError("cannot be broadcast");
  OpTester("Where", 16)
      .Input<bool>("condition", {0, 2}, {})
      .Input<float>("x", {2}, {1, 2})
      .Input<float>("y", {1}, {0})
      .Output<float>("z", {0, 2}, {})
      .Run();
}

TEST_CASE("Where splits large broadcasts across threads", "[logical][Where]") {
  const int64_t rows = 300, columns = 257;
  std::vector<bool> condition(columns);
  std::vector<float> x(rows * columns), expected(rows * columns);
  for (int64_t j = 0; j < columns; ++j) condition[j] = j % 3 == 0;
  for (int64_t i = 0; i < rows * columns; ++i) {
    x[i] = static_cast<float>(i);
    expected[i] = condition[i % columns] ? x[i] : -1.0f;
  }
  OpTester("Where", 16)
      .Input<bool>("condition", {columns}, condition)
      .Input<float>("x", {rows, columns}, x)
      .Input<float>("y", {}, {-1.0f})
      .Output<float>("z", {rows, columns}, expected)
      .Threads(2)
      .Run();
}

TEST_CASE("Bitwise ops on integers", "[logical][BitwiseAnd][BitwiseOr][BitwiseXor][BitwiseNot]") {
  OpTester("BitwiseAnd", 18)
      .Input<int32_t>("a", {2, 2}, {12, -1, 7, 0})
      .Input<int32_t>("b", {2}, {10, 5})
      .Output<int32_t>("c", {2, 2}, {8, 5, 2, 0})
      .Run();
  OpTester("BitwiseOr", 18)
      .Input<uint8_t>("a", {2}, {0xf0, 0x01})
      .Input<uint8_t>("b", {2}, {0x0f, 0x01})
      .Output<uint8_t>("c", {2}, {0xff, 0x01})
      .Run();
  OpTester("BitwiseXor", 18)
      .Input<int64_t>("a", {2}, {6, -1})
      .Input<int64_t>("b", {}, {3})
      .Output<int64_t>("c", {2}, {5, -4})
      .Run();
  OpTester("BitwiseNot", 18)
      .Input<uint16_t>("x", {2}, {0, 0x00ff})
      .Output<uint16_t>("y", {2}, {0xffff, 0xff00})
      .Run();
  OpTester("BitwiseNot", 18)
      .Input<float>("x", {1}, {1})
      .Output<float>("y", {1}, {1})
      .RunExpectingError("float");
}

}  // namespace ort::test
