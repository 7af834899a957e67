// Expected values are numpy's (float64 math/erf, rounded to float), hand-checked at 0 and +-6.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX2x6 = {6.0f,   -6.0f,   0.75f,   1.625f,  0.375f,  1.125f,
                                  1.375f, -1.125f, -1.875f, -0.875f, -0.875f, 0.0f};
const std::vector<float> kY2x6 = {6.0f,          -8.439649e-11f, 0.57996058f,  1.540195f,
                                  0.24230777f,   0.97822481f,    1.2584885f,   -0.14677522f,
                                  -0.057000965f, -0.16704732f,   -0.16704732f, 0.0f};

}  // namespace

TEST_CASE("Gelu is the erf form of GELU", "[contrib][Gelu]") {
  OpTester("Gelu", 1, "com.microsoft")
      .Input<float>("x", {2, 6}, kX2x6)
      .Output<float>("y", {2, 6},
                     {6.0f, -5.9195258e-09f, 0.58002949f, 1.540368f, 0.24231367f, 0.97841865f,
                      1.2587222f, -0.14658134f, -0.056993179f, -0.16693859f, -0.16693859f, 0.0f})
      .Run();
}

TEST_CASE("FastGelu is the tanh approximation, with and without bias", "[contrib][FastGelu]") {
  OpTester("FastGelu", 1, "com.microsoft")
      .Input<float>("x", {2, 6}, kX2x6)
      .Output<float>("y", {2, 6}, kY2x6)
      .Run();
  OpTester("FastGelu", 1, "com.microsoft")
      .Input<float>("x", {2, 6}, kX2x6)
      .Input<float>("bias", {6}, {1.75f, -2.0f, 0.0f, 1.375f, -1.5f, 1.25f})
      .Output<float>("y", {2, 6},
                     {7.75f, -0.0f, 0.57996058f, 2.9963627f, -0.14677522f, 2.3545446f, 3.1225841f,
                      -0.002415875f, -0.057000965f, 0.345714f, -0.020455407f, 1.1177142f})
      .Run();
  OpTester("FastGelu", 1, "com.microsoft")
      .Input<float>("x", {2, 6}, kX2x6)
      .OmittedInput()
      .Output<float>("y", {2, 6}, kY2x6)
      .Run();
}

TEST_CASE("BiasGelu adds a bias over the last axis before the erf GELU", "[contrib][BiasGelu]") {
  OpTester("BiasGelu", 1, "com.microsoft")
      .Input<float>("a", {2, 6}, kX2x6)
      .ConstantInput<float>("b", {6}, {1.75f, -2.0f, 0.0f, 1.375f, -1.5f, 1.25f})
      .Output<float>(
          "y", {2, 6},
          {7.75f, -4.8849813e-15f, 0.58002949f, 2.9959502f, -0.14658134f, 2.3541605f, 3.1222217f,
           -0.0027782042f, -0.056993179f, 0.34573123f, -0.020839378f, 1.1179378f})
      .Run();
}

TEST_CASE("QuickGelu is x * sigmoid(alpha x)", "[contrib][QuickGelu]") {
  OpTester("QuickGelu", 1, "com.microsoft")
      .Input<float>("x", {2, 6}, kX2x6)
      .Output<float>(
          "y", {2, 6},
          {5.9997797f, -0.00022035356f, 0.58639008f, 1.5287946f, 0.24538416f, 0.98049581f,
           1.2542146f, -0.14450417f, -0.07405562f, -0.16103004f, -0.16103004f, 0.0f})
      .Run();
  OpTester("QuickGelu", 1, "com.microsoft")
      .AttrFloat("alpha", -0.5f)
      .Input<float>("x", {2, 6}, kX2x6)
      .Output<float>("y", {2, 6},
                     {0.28455523f, -5.7154446f, 0.30550006f, 0.49945676f, 0.16997319f, 0.40834036f,
                      0.46006048f, -0.71665967f, -1.3473645f, -0.53170526f, -0.53170526f, 0.0f})
      .Run();
}

TEST_CASE("BiasGelu and FastGelu reject a bias that is not the last axis", "[contrib][BiasGelu]") {
  OpTester("BiasGelu", 1, "com.microsoft")
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("b", {2}, {1, 2})
      .Output<float>("y", {2, 3}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("must be 1-D");
  OpTester("BiasGelu", 1, "com.microsoft")
      .Input<float>("a", {2, 3}, {1, 2, 3, 4, 5, 6})
      .OmittedInput()
      .Output<float>("y", {2, 3}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("required input 1 is missing");
  OpTester("FastGelu", 1, "com.microsoft")
      .Input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("bias", {2, 3}, {1, 2, 3, 4, 5, 6})
      .Output<float>("y", {2, 3}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("must be 1-D");
}

TEST_CASE("Gelu and FastGelu compute double and half types", "[contrib][Gelu]") {
  // gelu(+-1) = 0.5 (1 +- erf(1/sqrt 2)); fast_gelu(1) = 0.5 (1 + tanh(sqrt(2/pi) 1.044715)).
  OpTester("Gelu", 1, "com.microsoft")
      .Input<double>("x", {3}, {0.0, 1.0, -1.0})
      .Output<double>("y", {3}, {0.0, 0.8413447460685429, -0.15865525393145707})
      .Run();
  OpTester("FastGelu", 1, "com.microsoft")
      .Input<Float16>("x", {2}, {Float16(0.0f), Float16(0.5f)})
      .Input<Float16>("bias", {2}, {Float16(1.0f), Float16(-0.5f)})
      .Output<Float16>("y", {2}, {Float16(0.84119199f), Float16(0.0f)})
      .SetTolerance(1e-3, 1e-3)
      .Run();
}

}  // namespace ort::test
