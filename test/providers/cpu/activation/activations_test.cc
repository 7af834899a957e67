#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

// Expected values computed with numpy in float64 from kX.
const std::vector<float> kX = {-3.0f, -1.0f, -0.25f, 0.0f, 0.5f, 2.0f, 6.0f};

OpTester Activation(const char* op, int opset) {
  OpTester tester(op, opset);
  tester.Input<float>("x", {7}, kX);
  return tester;
}

}  // namespace

TEST_CASE("Relu on floats and integers", "[activation][Relu]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpTester("Relu", 13)
      .Input<float>("x", {2, 3}, {-1, 0, 2, nan, -0.5f, 3})
      .Output<float>("y", {2, 3}, {0, 0, 2, nan, 0, 3})
      .Run();
  OpTester("Relu", 14)
      .Input<int8_t>("x", {3}, {-128, 0, 127})
      .Output<int8_t>("y", {3}, {0, 0, 127})
      .Run();
  OpTester("Relu", 13)
      .Input<int32_t>("x", {1}, {-1})
      .Output<int32_t>("y", {1}, {0})
      .RunExpectingError("int32");
}

TEST_CASE("LeakyRelu, Elu, Selu, Celu", "[activation][LeakyRelu][Elu][Selu][Celu]") {
  Activation("LeakyRelu", 16)
      .AttrFloat("alpha", 0.1f)
      .Output<float>("y", {7}, {-0.3f, -0.1f, -0.025f, 0, 0.5f, 2, 6})
      .Run();
  Activation("Elu", 6)
      .AttrFloat("alpha", 0.5f)
      .Output<float>("y", {7}, {-0.47510647f, -0.31606028f, -0.11059961f, 0, 0.5f, 2, 6})
      .Run();
  Activation("Selu", 6)
      .Output<float>("y", {7},
                     {-1.6705687f, -1.1113307f, -0.3888902f, 0, 0.52535051f, 2.101402f, 6.3042061f})
      .Run();
  Activation("Selu", 6)
      .AttrFloat("alpha", 2.0f)
      .AttrFloat("gamma", 3.0f)
      .Output<float>("y", {7}, {-5.7012776f, -3.7927234f, -1.3271953f, 0, 1.5f, 6, 18})
      .Run();
  Activation("Celu", 12)
      .AttrFloat("alpha", 2.0f)
      .Output<float>("y", {7}, {-1.5537397f, -0.78693868f, -0.23500619f, 0, 0.5f, 2, 6})
      .Run();
  Activation("Celu", 12)
      .AttrFloat("alpha", 0.0f)
      .Output<float>("y", {7}, {0, 0, 0, 0, 0, 0, 0})
      .RunExpectingError("alpha must not be 0");
}

TEST_CASE("Sigmoid, HardSigmoid, HardSwish", "[activation][Sigmoid][HardSigmoid][HardSwish]") {
  Activation("Sigmoid", 13)
      .Output<float>(
          "y", {7},
          {0.047425873f, 0.26894142f, 0.4378235f, 0.5f, 0.62245933f, 0.88079708f, 0.99752738f})
      .Run();
  OpTester("Sigmoid", 13)
      .Input<float>("x", {3}, {-80, 100, -20})
      .Output<float>("y", {3}, {1.8048514e-35f, 1, 2.0611536e-09f})
      .SetTolerance(1e-5, 0)
      .Run();
  OpTester("Sigmoid", 6)
      .Input<double>("x", {2}, {0.5, -1.0})
      .Output<double>("y", {2}, {0.62245933120185459, 0.2689414213699951})
      .Run();
  Activation("HardSigmoid", 6).Output<float>("y", {7}, {0, 0.3f, 0.45f, 0.5f, 0.6f, 0.9f, 1}).Run();
  Activation("HardSigmoid", 6)
      .AttrFloat("alpha", 0.5f)
      .AttrFloat("beta", 0.1f)
      .Output<float>("y", {7}, {0, 0, 0, 0.1f, 0.35f, 1, 1})
      .Run();
  Activation("HardSwish", 14)
      .Output<float>("y", {7}, {0, -0.33333333f, -0.11458333f, 0, 0.29166667f, 1.6666667f, 6})
      .Run();
}

TEST_CASE("Tanh, Softplus, Softsign", "[activation][Tanh][Softplus][Softsign]") {
  Activation("Tanh", 13)
      .Output<float>(
          "y", {7},
          {-0.99505475f, -0.76159416f, -0.24491866f, 0, 0.46211716f, 0.96402758f, 0.99998771f})
      .Run();
  Activation("Softplus", 1)
      .Output<float>(
          "y", {7},
          {0.048587352f, 0.31326169f, 0.57593942f, 0.69314718f, 0.97407698f, 2.126928f, 6.0024757f})
      .Run();
  OpTester("Softplus", 1)
      .Input<float>("x", {2}, {100, -80})
      .Output<float>("y", {2}, {100, 1.8048514e-35f})
      .SetTolerance(1e-5, 0)
      .Run();
  Activation("Softsign", 1)
      .Output<float>("y", {7}, {-0.75f, -0.5f, -0.2f, 0, 0.33333333f, 0.66666667f, 0.85714286f})
      .Run();
}

TEST_CASE("ThresholdedRelu and Shrink", "[activation][ThresholdedRelu][Shrink]") {
  Activation("ThresholdedRelu", 10)
      .AttrFloat("alpha", 0.5f)
      .Output<float>("y", {7}, {0, 0, 0, 0, 0, 2, 6})
      .Run();
  Activation("Shrink", 9)
      .AttrFloat("lambd", 1.0f)
      .AttrFloat("bias", 0.5f)
      .Output<float>("y", {7}, {-2.5f, 0, 0, 0, 0, 1.5f, 5.5f})
      .Run();
  OpTester("Shrink", 9)
      .AttrFloat("lambd", 1.5f)
      .AttrFloat("bias", 1.5f)
      .Input<int8_t>("x", {5}, {-128, -2, 1, 2, 127})
      .Output<int8_t>("y", {5}, {-126, 0, 0, 0, 125})
      .Run();
}

TEST_CASE("Gelu (exact and tanh) and Mish", "[activation][Gelu][Mish]") {
  Activation("Gelu", 20)
      .Output<float>("y", {7},
                     {-0.0040496941f, -0.15865525f, -0.10032342f, 0, 0.34573123f, 1.9544997f, 6})
      .Run();
  Activation("Gelu", 20)
      .AttrString("approximate", "tanh")
      .Output<float>("y", {7},
                     {-0.0036373921f, -0.15880801f, -0.10032465f, 0, 0.34571401f, 1.9545977f, 6})
      .Run();
  Activation("Gelu", 20)
      .AttrString("approximate", "fast")
      .Output<float>("y", {7}, {0, 0, 0, 0, 0, 0, 0})
      .RunExpectingError("approximate");
  Activation("Mish", 18)
      .Output<float>(
          "y", {7},
          {-0.14564746f, -0.30340146f, -0.12992696f, 0, 0.37524521f, 1.943959f, 5.9999266f})
      .Run();
  Activation("Gelu", 17).Output<float>("y", {7}, {0, 0, 0, 0, 0, 0, 0}).RunExpectingError("opset");
}

TEST_CASE("Swish with the default and a given alpha", "[activation][Swish]") {
  Activation("Swish", 24)
      .Output<float>("y", {7},
                     {-0.14227762f, -0.26894142f, -0.10945587f, 0, 0.31122967f, 1.76159416f,
                      5.98516426f})
      .Run();
  Activation("Swish", 24)
      .AttrFloat("alpha", 0.5f)
      .Output<float>("y", {7},
                     {-0.54727657f, -0.37754067f, -0.11719766f, 0, 0.28108825f, 1.46211716f,
                      5.71544476f})
      .Run();
}

TEST_CASE("Activations on half types and empty tensors", "[activation][Sigmoid][Relu]") {
  OpTester("Sigmoid", 13)
      .Input<Float16>("x", {2}, {Float16(0.0f), Float16(2.0f)})
      .Output<Float16>("y", {2}, {Float16(0.5f), Float16(0.88079708f)})
      .Run();
  OpTester("LeakyRelu", 16)
      .Input<BFloat16>("x", {2}, {BFloat16(-2.0f), BFloat16(3.0f)})
      .Output<BFloat16>("y", {2}, {BFloat16(-0.02f), BFloat16(3.0f)})
      .SetTolerance(1e-2, 1e-3)
      .Run();
  OpTester("Relu", 14).Input<float>("x", {3, 0}, {}).Output<float>("y", {3, 0}, {}).Run();
}

TEST_CASE("Sigmoid and Gelu split large inputs across threads", "[activation][Sigmoid][Gelu]") {
  std::vector<float> x(50000), sigmoid(50000), gelu(50000);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i % 400) * 0.05f - 10.0f;
    sigmoid[i] = static_cast<float>(1.0 / (1.0 + std::exp(-static_cast<double>(x[i]))));
    gelu[i] = static_cast<float>(0.5 * x[i] * (1.0 + std::erf(x[i] / std::sqrt(2.0))));
  }
  OpTester("Sigmoid", 13)
      .Input<float>("x", {50000}, x)
      .Output<float>("y", {50000}, sigmoid)
      .Threads(2)
      .Run();
  OpTester("Gelu", 20)
      .Input<float>("x", {50000}, x)
      .Output<float>("y", {50000}, gelu)
      .Threads(2)
      .Run();
}

TEST_CASE("PRelu broadcasts the slope", "[activation][PRelu]") {
  OpTester("PRelu", 16)
      .Input<float>("x", {2, 3}, {-1, 2, -3, 4, -5, 6})
      .Input<float>("slope", {3}, {0.1f, 0.2f, 0.3f})
      .Output<float>("y", {2, 3}, {-0.1f, 2, -0.9f, 4, -1.0f, 6})
      .Run();
  OpTester("PRelu", 9)
      .Input<float>("x", {2, 2}, {-1, 2, -3, 4})
      .Input<float>("slope", {2, 1}, {0.5f, 2.0f})
      .Output<float>("y", {2, 2}, {-0.5f, 2, -6, 4})
      .Run();
  OpTester("PRelu", 16)
      .Input<int32_t>("x", {3}, {-4, 0, 5})
      .Input<int32_t>("slope", {1}, {3})
      .Output<int32_t>("y", {3}, {-12, 0, 5})
      .Run();
  // The slope may not grow X.
  OpTester("PRelu", 16)
      .Input<float>("x", {3}, {-1, 2, -3})
      .Input<float>("slope", {2, 3}, {1, 1, 1, 1, 1, 1})
      .Output<float>("y", {3}, {-1, 2, -3})
      .RunExpectingError("cannot be broadcast");
}

TEST_CASE("PRelu before opset 7 applies a 1-D slope per channel", "[activation][PRelu]") {
  OpTester("PRelu", 6)
      .Input<float>("x", {1, 2, 2}, {-1, -2, -3, 4})
      .Input<float>("slope", {2}, {0.5f, 0.25f})
      .Output<float>("y", {1, 2, 2}, {-0.5f, -1, -0.75f, 4})
      .Run();
  OpTester("PRelu", 6)
      .Input<float>("x", {1, 2, 2}, {-1, -2, -3, 4})
      .Input<float>("slope", {1}, {0.5f})
      .Output<float>("y", {1, 2, 2}, {-0.5f, -1, -1.5f, 4})
      .Run();
}

TEST_CASE("The experimental opset-1 activations ONNX Runtime keeps",
          "[activation][Affine][ScaledTanh][ParametricSoftplus][Scale][ThresholdedRelu]") {
  Activation("Affine", 1)
      .AttrFloat("alpha", 2.0f)
      .AttrFloat("beta", 0.5f)
      .Output<float>("y", {7}, {-5.5f, -1.5f, 0.0f, 0.5f, 1.5f, 4.5f, 12.5f})
      .Run();
  Activation("ScaledTanh", 1)
      .AttrFloat("alpha", 1.5f)
      .AttrFloat("beta", 0.5f)
      .Output<float>(
          "y", {7},
          {-1.3577224f, -0.69317573f, -0.1865295f, 0.0f, 0.367378f, 1.1423912f, 1.4925821f})
      .Run();
  Activation("ParametricSoftplus", 1)
      .AttrFloat("alpha", 2.0f)
      .AttrFloat("beta", 0.5f)
      .Output<float>(
          "y", {7},
          {0.40282655f, 0.94815397f, 1.2651981f, 1.3862944f, 1.6518788f, 2.6265233f, 6.0971746f})
      .Run();
  Activation("Scale", 1)
      .AttrFloat("scale", 3.0f)
      .Output<float>("y", {7}, {-9.0f, -3.0f, -0.75f, 0.0f, 1.5f, 6.0f, 18.0f})
      .Run();
  Activation("ThresholdedRelu", 1)
      .AttrFloat("alpha", 0.5f)
      .Output<float>("y", {7}, {0, 0, 0, 0, 0, 2, 6})
      .Run();
  Activation("ScaledTanh", 1).AttrFloat("alpha", 1.0f).RunExpectingError("beta");
}

}  // namespace ort::test
