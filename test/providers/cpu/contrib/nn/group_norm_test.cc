// com.microsoft GroupNorm. Expected values are numpy's group normalization in float64 (the
// opset-21 GroupNormalization case of test/providers/cpu/nn/group_norm_test.cc, whose per-channel
// scale and bias GroupNorm's gamma and beta are), then y * sigmoid(y) for the SiLU case.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

namespace {

const std::vector<float> kX2x4x3 = {-0.375f, -1.0f,   0.875f, -0.75f, -0.5f, 1.0f,   -0.0f, 1.125f,
                                    0.125f,  -1.375f, -0.25f, 1.5f,   0.25f, 1.875f, -2.0f, -0.625f,
                                    1.125f,  0.75f,   0.25f,  0.625f, 1.5f,  0.75f,  0.25f, 0.25f};
const std::vector<float> kGamma = {1.125f, -0.125f, -1.875f, 0.125f};
const std::vector<float> kBeta = {1.375f, 0.5f, 0.625f, -0.375f};

OpTester GroupNormTester(int64_t activation, int64_t channels_last) {
  OpTester tester("GroupNorm", 1, "com.microsoft");
  tester.AttrInt("groups", 2)
      .AttrInt("activation", activation)
      .AttrInt("channels_last", channels_last)
      .AttrFloat("epsilon", 1e-5f);
  return tester;
}

}  // namespace

TEST_CASE("GroupNorm normalizes channel groups, channels first", "[contrib][GroupNorm]") {
  GroupNormTester(0, 0)
      .Input<float>("x", {2, 4, 3}, kX2x4x3)
      .Input<float>("gamma", {4}, kGamma)
      .Input<float>("beta", {4}, kBeta)
      .Output<float>(
          "y", {2, 4, 3},
          {1.013165f,   0.10857761f, 2.82234f,     0.6005097f,   0.56030583f,  0.3190825f,
           0.99999785f, -1.2499892f, 0.74999928f,  -0.58333212f, -0.43333301f, -0.200001f,
           1.3936441f,  2.8478818f,  -0.61991596f, 0.58493412f,  0.41092277f,  0.4482109f,
           2.1095297f,  0.53767478f, -3.1299868f,  -0.33424821f, -0.47396865f, -0.47396865f})
      .Run();
}

TEST_CASE("GroupNorm applies SiLU after the normalization", "[contrib][GroupNorm]") {
  GroupNormTester(1, 0)
      .Input<float>("x", {2, 4, 3}, kX2x4x3)
      .Input<float>("gamma", {4}, kGamma)
      .Input<float>("beta", {4}, kBeta)
      .Output<float>(
          "y", {2, 4, 3},
          {0.74329746f, 0.057233153f, 2.6639253f,   0.38779291f,  0.35664772f,  0.18478088f,
           0.7310566f,  -0.27837511f, 0.50938343f,  -0.20892987f, -0.17044318f, -0.090033599f,
           1.1165505f,  2.6918438f,   -0.21684694f, 0.37564583f,  0.2470916f,   0.27350447f,
           1.8813333f,  0.33941864f,  -0.13110619f, -0.1394508f,  -0.18185103f, -0.18185103f})
      .Run();
}

TEST_CASE("GroupNorm reads channels-last data", "[contrib][GroupNorm]") {
  // The channels-first case transposed to [2, 3, 4].
  GroupNormTester(0, 1)
      .Input<float>("x", {2, 3, 4},
                    {-0.375f, -0.75f, -0.0f,  -1.375f, -1.0f, -0.5f,   1.125f, -0.25f,
                     0.875f,  1.0f,   0.125f, 1.5f,    0.25f, -0.625f, 0.25f,  0.75f,
                     1.875f,  1.125f, 0.625f, 0.25f,   -2.0f, 0.75f,   1.5f,   0.25f})
      .Input<float>("gamma", {4}, kGamma)
      .Input<float>("beta", {4}, kBeta)
      .Output<float>(
          "y", {2, 3, 4},
          {1.013165f,   0.60050972f,  0.99999787f,  -0.58333215f, 0.10857755f, 0.56030583f,
           -1.2499893f, -0.433333f,   2.8223399f,   0.31908251f,  0.74999929f, -0.200001f,
           1.3936441f,  0.58493411f,  2.1095297f,   -0.33424821f, 2.8478818f,  0.41092276f,
           0.53767473f, -0.47396864f, -0.61991588f, 0.44821091f,  -3.1299868f, -0.47396864f})
      .Run();
}

TEST_CASE("GroupNorm rejects channels not divisible by groups and short gamma",
          "[contrib][GroupNorm]") {
  GroupNormTester(0, 0)
      .Input<float>("x", {1, 3, 2}, {1, 2, 3, 4, 5, 6})
      .Input<float>("gamma", {3}, {1, 1, 1})
      .Input<float>("beta", {3}, {0, 0, 0})
      .Output<float>("y", {1, 3, 2}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("not divisible");
  GroupNormTester(0, 0)
      .Input<float>("x", {1, 4, 1}, {1, 2, 3, 4})
      .Input<float>("gamma", {2}, {1, 1})
      .Input<float>("beta", {4}, {0, 0, 0, 0})
      .Output<float>("y", {1, 4, 1}, {0, 0, 0, 0})
      .RunExpectingError("must have 4 values");
}

}  // namespace ort::test
