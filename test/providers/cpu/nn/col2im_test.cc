#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from numpy: numpy.random.seed masks for Dropout, a loop transcription
// of the bilinear sampling for RoiAlign and a scatter loop for Col2Im.
namespace ort::test {

TEST_CASE("Col2Im folds columns back into images", "[nn][Col2Im]") {
  OpTester("Col2Im", 18)
      .Input<float>(
          "input", {1, 8, 6},
          {-1.125f, -1.125f, -1.75f, -1.125f, 0.375f,  1.5f,   -0.625f, -0.5f,  -0.375f, 0.75f,
           1.125f,  1.75f,   -0.5f,  0.875f,  -0.625f, 1.25f,  -1.125f, 1.5f,   0.0f,    0.875f,
           0.125f,  -0.75f,  -0.0f,  -1.75f,  -1.875f, 0.125f, -0.125f, 1.375f, -1.875f, 0.25f,
           -0.0f,   0.375f,  0.875f, 0.125f,  0.25f,   -0.0f,  0.5f,    -1.0f,  0.25f,   0.75f,
           -1.25f,  2.0f,    1.0f,   1.875f,  -0.875f, -0.25f, -1.0f,   -1.875f})
      .Input<int64_t>("image_shape", {2}, {3, 4})
      .Input<int64_t>("block_shape", {2}, {2, 2})
      .Output<float>("y", {1, 2, 3, 4},
                     {-1.125f, -1.75f,  -2.25f, -0.375f, -1.625f, 2.0f,   2.875f, 1.875f,
                      1.25f,   -1.875f, 1.5f,   -1.75f,  -1.875f, 0.125f, 0.25f,  0.875f,
                      1.875f,  -1.75f,  2.625f, -0.875f, 0.75f,   -1.5f,  1.0f,   -1.875f})
      .Run();
  OpTester("Col2Im", 18)
      .AttrInts("strides", {2})
      .AttrInts("pads", {1, 1})
      .Input<float>("input", {2, 3, 3},
                    {-2.0f, -1.75f, -1.125f, -0.375f, 0.375f, 1.875f, 1.5f, -1.0f, 0.5f, 1.625f,
                     -1.625f, 1.375f, -0.375f, 1.125f, -0.75f, 0.5f, 0.0f, -1.625f})
      .Input<int64_t>("image_shape", {1}, {6})
      .Input<int64_t>("block_shape", {1}, {3})
      .Output<float>("y", {2, 1, 6},
                     {-0.375f, -0.25f, 0.375f, -2.125f, 1.875f, 0.5f, -0.375f, -1.125f, 1.125f,
                      1.375f, -0.75f, -1.625f})
      .Run();
  OpTester("Col2Im", 18)
      .AttrInts("dilations", {2, 1})
      .Input<float>("input", {1, 4, 4},
                    {1.0f, 1.25f, -0.125f, -0.5f, 1.75f, -0.5f, 1.5f, -0.375f, -0.5f, -0.5f, -1.75f,
                     -0.875f, -1.125f, -1.75f, 0.125f, -0.25f})
      .Input<int64_t>("image_shape", {2}, {3, 3})
      .Input<int64_t>("block_shape", {2}, {2, 2})
      .Output<float>("y", {1, 1, 3, 3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f})
      .RunExpectingError("does not fit");
}

}  // namespace ort::test
