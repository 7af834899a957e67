#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from numpy: numpy.random.seed masks for Dropout, a loop transcription
// of the bilinear sampling for RoiAlign and a scatter loop for Col2Im.
namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX3x4 = {1.25f,   1.25f,   0.0f,   -0.875f, -1.75f, -0.5f,
                                  -0.375f, -1.875f, -1.75f, 2.0f,    0.625f, -1.0f};
const std::vector<bool> kMask3x4 = {true, true, true, true, true, true,
                                    true, true, true, true, true, true};

}  // namespace

TEST_CASE("Dropout forwards the input in inference", "[nn][Dropout]") {
  OpTester("Dropout", 13)
      .Input<float>("x", {3, 4}, kX3x4)
      .Output<float>("y", {3, 4}, kX3x4)
      .Output<bool>("mask", {3, 4}, kMask3x4)
      .Run();
  OpTester("Dropout", 7)
      .AttrFloat("ratio", 0.30000001f)
      .Input<float>("x", {3, 4}, kX3x4)
      .Output<float>("y", {3, 4}, kX3x4)
      .Output<float>("mask", {3, 4},
                     {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f})
      .Run();
  OpTester("Dropout", 13)
      .Input<float>("x", {3, 4}, kX3x4)
      .Input<float>("ratio", {}, {0.5f})
      .Input<bool>("training_mode", {}, {false})
      .Output<float>("y", {3, 4}, kX3x4)
      .Run();
}

TEST_CASE("Dropout training mode reproduces numpy masks for a seed", "[nn][Dropout]") {
  OpTester("Dropout", 13)
      .AttrInt("seed", 7)
      .Input<float>("x", {3, 4}, kX3x4)
      .Input<float>("ratio", {}, {0.25f})
      .Input<bool>("training_mode", {}, {true})
      .Output<float>("y", {3, 4},
                     {0.0f, 1.6666666f, 0.0f, -1.1666666f, -2.3333333f, -0.66666669f, -0.5f, -0.0f,
                      -2.3333333f, 2.6666667f, 0.83333331f, -1.3333334f})
      .Output<bool>("mask", {3, 4},
                    {false, true, true, true, true, true, true, false, true, true, true, true})
      .Run();
  OpTester("Dropout", 12)
      .AttrInt("seed", 7)
      .Input<float>("x", {3, 4}, kX3x4)
      .Input<double>("ratio", {}, {0.0})
      .Input<bool>("training_mode", {}, {true})
      .Output<float>("y", {3, 4}, kX3x4)
      .Output<bool>("mask", {3, 4}, kMask3x4)
      .Run();
  OpTester("Dropout", 13)
      .Input<float>("x", {3, 4}, kX3x4)
      .Input<float>("ratio", {}, {1.5f})
      .Input<bool>("training_mode", {}, {true})
      .Output<float>("y", {3, 4}, kX3x4)
      .RunExpectingError("is not in [0, 1]");
}

}  // namespace ort::test
