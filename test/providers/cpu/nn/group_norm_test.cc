#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from the numpy formulas of each op (population variance).
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX2x4x3 = {-0.375f, -1.0f,   0.875f, -0.75f, -0.5f, 1.0f,   -0.0f, 1.125f,
                                    0.125f,  -1.375f, -0.25f, 1.5f,   0.25f, 1.875f, -2.0f, -0.625f,
                                    1.125f,  0.75f,   0.25f,  0.625f, 1.5f,  0.75f,  0.25f, 0.25f};

}  // namespace

TEST_CASE("GroupNormalization with per-group (18) and per-channel (21) parameters",
          "[nn][GroupNormalization]") {
  OpTester("GroupNormalization", 18)
      .AttrInt("num_groups", 2)
      .Input<float>("x", {2, 4, 3}, kX2x4x3)
      .Input<float>("scale", {2}, {0.625f, -0.75f})
      .Input<float>("bias", {2}, {0.625f, 0.5f})
      .Output<float>(
          "y", {2, 4, 3},
          {0.42398056f, -0.078567982f, 1.4290777f,   0.12245142f, 0.32347083f, 1.5295875f,
           0.64999914f, -0.24999565f,  0.54999971f,  1.7499928f,  0.849998f,   -0.54999399f,
           0.6353578f,  1.4432677f,    -0.48328662f, 0.20032942f, 1.0703862f,  0.88394547f,
           1.0938119f,  0.46506992f,   -1.0019946f,  0.25548926f, 1.0938119f,  1.0938119f})
      .Run();
  OpTester("GroupNormalization", 21)
      .AttrInt("num_groups", 2)
      .Input<float>("x", {2, 4, 3}, kX2x4x3)
      .Input<float>("scale", {4}, {1.125f, -0.125f, -1.875f, 0.125f})
      .Input<float>("bias", {4}, {1.375f, 0.5f, 0.625f, -0.375f})
      .Output<float>(
          "y", {2, 4, 3},
          {1.013165f,   0.10857761f, 2.82234f,     0.6005097f,   0.56030583f,  0.3190825f,
           0.99999785f, -1.2499892f, 0.74999928f,  -0.58333212f, -0.43333301f, -0.200001f,
           1.3936441f,  2.8478818f,  -0.61991596f, 0.58493412f,  0.41092277f,  0.4482109f,
           2.1095297f,  0.53767478f, -3.1299868f,  -0.33424821f, -0.47396865f, -0.47396865f})
      .Run();
}

TEST_CASE("GroupNormalization rejects channels not divisible by groups",
          "[nn][GroupNormalization]") {
  OpTester("GroupNormalization", 18)
      .AttrInt("num_groups", 3)
      .Input<float>("x", {1, 4, 1}, {1, 2, 3, 4})
      .Input<float>("scale", {3}, {1, 1, 1})
      .Input<float>("bias", {3}, {0, 0, 0})
      .Output<float>("y", {1, 4, 1}, {0, 0, 0, 0})
      .RunExpectingError("not divisible");
}

}  // namespace ort::test
