#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("Constant from every value attribute", "[generator][Constant]") {
  OpTester("Constant", 13)
      .Attr(Attribute::TensorValue("value", OpTester::MakeTensor<float>({2}, {1.5f, 2.5f})))
      .Output<float>("y", {2}, {1.5f, 2.5f})
      .Run();
  OpTester("Constant", 12).AttrFloat("value_float", 3.0f).Output<float>("y", {}, {3.0f}).Run();
  OpTester("Constant", 12).AttrFloats("value_floats", {1, 2}).Output<float>("y", {2}, {1, 2}).Run();
  OpTester("Constant", 12).AttrInt("value_int", 7).Output<int64_t>("y", {}, {7}).Run();
  OpTester("Constant", 12)
      .AttrInts("value_ints", {4, 5, 6})
      .Output<int64_t>("y", {3}, {4, 5, 6})
      .Run();
  OpTester("Constant", 12)
      .AttrString("value_string", "hi")
      .Output<std::string>("y", {}, {"hi"})
      .Run();
  OpTester("Constant", 12)
      .Attr(Attribute::Strings("value_strings", {"a", "b"}))
      .Output<std::string>("y", {2}, {"a", "b"})
      .Run();
  OpTester("Constant", 1)
      .Attr(Attribute::TensorValue("value", OpTester::MakeTensor<int32_t>({0}, {})))
      .Output<int32_t>("y", {0}, {})
      .Run();
}

TEST_CASE("Constant and ConstantOfShape with int4 and uint4", "[generator][Constant]") {
  OpTester("Constant", 21)
      .Attr(
          Attribute::TensorValue("value", OpTester::MakeFourBit(DataType::kInt4, {3}, {-8, 0, 7})))
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kInt4, {3}, {-8, 0, 7}))
      .Run();
  OpTester("ConstantOfShape", 21)
      .Attr(Attribute::TensorValue("value", OpTester::MakeFourBit(DataType::kInt4, {1}, {-3})))
      .Input<int64_t>("shape", {1}, {3})
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kInt4, {3}, {-3, -3, -3}))
      .Run();
  OpTester("ConstantOfShape", 21)
      .Attr(Attribute::TensorValue("value", OpTester::MakeFourBit(DataType::kUint4, {1}, {9})))
      .Input<int64_t>("shape", {2}, {2, 2})
      .TensorOutput("y", OpTester::MakeFourBit(DataType::kUint4, {2, 2}, {9, 9, 9, 9}))
      .Run();
}

TEST_CASE("Constant needs exactly one known attribute", "[generator][Constant]") {
  OpTester("Constant", 13)
      .AttrInt("value_int", 1)
      .AttrFloat("value_float", 1.0f)
      .Output<int64_t>("y", {}, {1})
      .RunExpectingError("exactly one");
  OpTester("Constant", 13)
      .AttrInt("value_bogus", 1)
      .Output<int64_t>("y", {}, {1})
      .RunExpectingError("unknown attribute");
}

TEST_CASE("ConstantOfShape fills the requested shape", "[generator][ConstantOfShape]") {
  OpTester("ConstantOfShape", 9)
      .Input<int64_t>("shape", {2}, {2, 3})
      .Output<float>("y", {2, 3}, {0, 0, 0, 0, 0, 0})
      .Run();
  OpTester("ConstantOfShape", 9)
      .Attr(Attribute::TensorValue("value", OpTester::MakeTensor<int32_t>({1}, {4})))
      .Input<int64_t>("shape", {1}, {3})
      .Output<int32_t>("y", {3}, {4, 4, 4})
      .Run();
  OpTester("ConstantOfShape", 9)
      .Attr(Attribute::TensorValue("value", OpTester::MakeTensor<bool>({1}, {true})))
      .Input<int64_t>("shape", {0}, {})
      .Output<bool>("y", {}, {true})
      .Run();
  OpTester("ConstantOfShape", 9)
      .Input<int64_t>("shape", {2}, {0, 5})
      .Output<float>("y", {0, 5}, {})
      .Run();
  OpTester("ConstantOfShape", 9)
      .Input<int64_t>("shape", {1}, {-1})
      .Output<float>("y", {0}, {})
      .RunExpectingError("negative");
  OpTester("ConstantOfShape", 9)
      .Attr(Attribute::TensorValue("value", OpTester::MakeTensor<float>({2}, {1, 2})))
      .Input<int64_t>("shape", {1}, {1})
      .Output<float>("y", {1}, {1})
      .RunExpectingError("one non-string element");
}

TEST_CASE("Range counts ceil((limit - start) / delta) steps", "[generator][Range]") {
  OpTester("Range", 11)
      .Input<float>("start", {}, {1})
      .Input<float>("limit", {}, {2})
      .Input<float>("delta", {}, {0.3f})
      .Output<float>("y", {4}, {1, 1.3f, 1.6f, 1.9f})
      .Run();
  OpTester("Range", 11)
      .Input<int32_t>("start", {}, {10})
      .Input<int32_t>("limit", {}, {4})
      .Input<int32_t>("delta", {}, {-3})
      .Output<int32_t>("y", {2}, {10, 7})
      .Run();
  OpTester("Range", 11)
      .Input<int64_t>("start", {}, {5})
      .Input<int64_t>("limit", {}, {5})
      .Input<int64_t>("delta", {}, {1})
      .Output<int64_t>("y", {0}, {})
      .Run();
  OpTester("Range", 11)
      .Input<int16_t>("start", {}, {0})
      .Input<int16_t>("limit", {}, {5})
      .Input<int16_t>("delta", {}, {-1})
      .Output<int16_t>("y", {0}, {})
      .Run();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  OpTester("Range", 11)
      .Input<int64_t>("start", {}, {-kMax})
      .Input<int64_t>("limit", {}, {kMax})
      .Input<int64_t>("delta", {}, {kMax})
      .Output<int64_t>("y", {2}, {-kMax, 0})
      .Run();
  OpTester("Range", 11)
      .Input<double>("start", {}, {0})
      .Input<double>("limit", {}, {1})
      .Input<double>("delta", {}, {0})
      .Output<double>("y", {0}, {})
      .RunExpectingError("delta must not be 0");
  OpTester("Range", 11)
      .Input<float>("start", {}, {0})
      .Input<float>("limit", {}, {INFINITY})
      .Input<float>("delta", {}, {1})
      .Output<float>("y", {0}, {})
      .RunExpectingError("not finite");
}

TEST_CASE("EyeLike puts ones on diagonal k", "[generator][EyeLike]") {
  OpTester("EyeLike", 9)
      .Input<float>("x", {2, 3}, {9, 9, 9, 9, 9, 9})
      .Output<float>("y", {2, 3}, {1, 0, 0, 0, 1, 0})
      .Run();
  OpTester("EyeLike", 9)
      .AttrInt("k", 1)
      .AttrInt("dtype", 7)
      .Input<float>("x", {3, 3}, std::vector<float>(9, 0.0f))
      .Output<int64_t>("y", {3, 3}, {0, 1, 0, 0, 0, 1, 0, 0, 0})
      .Run();
  OpTester("EyeLike", 9)
      .AttrInt("k", -2)
      .Input<bool>("x", {3, 2}, std::vector<bool>(6, false))
      .Output<bool>("y", {3, 2}, {false, false, false, false, true, false})
      .Run();
  OpTester("EyeLike", 9)
      .AttrInt("k", 5)
      .Input<int32_t>("x", {2, 2}, {1, 1, 1, 1})
      .Output<int32_t>("y", {2, 2}, {0, 0, 0, 0})
      .Run();
  OpTester("EyeLike", 9)
      .Input<float>("x", {2}, {1, 1})
      .Output<float>("y", {2}, {1, 1})
      .RunExpectingError("2-D");
}

TEST_CASE("Random generators produce the requested shape and type", "[generator][Random]") {
  // Degenerate distributions make the values exact.
  OpTester("RandomUniform", 1)
      .AttrInts("shape", {2, 2})
      .AttrFloat("low", 3.0f)
      .AttrFloat("high", 3.0f)
      .Output<float>("y", {2, 2}, {3, 3, 3, 3})
      .Run();
  OpTester("RandomNormal", 1)
      .AttrInts("shape", {3})
      .AttrFloat("mean", 2.0f)
      .AttrFloat("scale", 0.0f)
      .AttrInt("dtype", 11)
      .AttrFloat("seed", 5.0f)
      .Output<double>("y", {3}, {2, 2, 2})
      .Run();
  OpTester("RandomUniformLike", 1)
      .AttrFloat("low", -1.0f)
      .AttrFloat("high", -1.0f)
      .Input<Float16>("x", {2}, {Float16(0.0f), Float16(0.0f)})
      .Output<Float16>("y", {2}, {Float16(-1.0f), Float16(-1.0f)})
      .Run();
  OpTester("RandomNormalLike", 1)
      .AttrInt("dtype", 1)
      .AttrFloat("scale", 0.0f)
      .Input<int32_t>("x", {1, 2}, {0, 0})
      .Output<float>("y", {1, 2}, {0, 0})
      .Run();
  OpTester("RandomUniform", 1)
      .AttrInts("shape", {2})
      .AttrFloat("low", 2.0f)
      .AttrFloat("high", 1.0f)
      .Output<float>("y", {2}, {0, 0})
      .RunExpectingError("low must not exceed high");
  OpTester("RandomUniformLike", 1)
      .Input<int32_t>("x", {1}, {0})
      .Output<int32_t>("y", {1}, {0})
      .RunExpectingError("does not support element type int32");
}

TEST_CASE("Bernoulli and Multinomial with certain outcomes",
          "[generator][Bernoulli][Multinomial]") {
  OpTester("Bernoulli", 15)
      .Input<float>("p", {4}, {0, 1, 1, 0})
      .Output<float>("y", {4}, {0, 1, 1, 0})
      .Run();
  OpTester("Bernoulli", 15)
      .AttrInt("dtype", 9)
      .AttrFloat("seed", 1.0f)
      .Input<double>("p", {2}, {1, 0})
      .Output<bool>("y", {2}, {true, false})
      .Run();
  OpTester("Bernoulli", 15)
      .Input<float>("p", {1}, {1.5f})
      .Output<float>("y", {1}, {0})
      .RunExpectingError("outside [0, 1]");
  OpTester("Multinomial", 7)
      .AttrInt("sample_size", 3)
      .Input<float>("logits", {2, 3}, {-INFINITY, 0, -INFINITY, 5, -INFINITY, -INFINITY})
      .Output<int32_t>("y", {2, 3}, {1, 1, 1, 0, 0, 0})
      .Run();
  OpTester("Multinomial", 7)
      .AttrInt("dtype", 7)
      .AttrFloat("seed", 3.0f)
      .Input<float>("logits", {1, 1}, {0.3f})
      .Output<int64_t>("y", {1, 1}, {0})
      .Run();
  OpTester("Multinomial", 7)
      .AttrInt("dtype", 1)
      .Input<float>("logits", {1, 1}, {0.3f})
      .Output<float>("y", {1, 1}, {0})
      .RunExpectingError("int32 or int64");
}

}  // namespace ort::test
