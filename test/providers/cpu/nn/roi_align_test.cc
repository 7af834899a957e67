#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values come from numpy: numpy.random.seed masks for Dropout, a loop transcription
// of the bilinear sampling for RoiAlign and a scatter loop for Col2Im.
namespace ort::test {

namespace {

// x [2, 2, 5, 6] with three regions of interest over it.
const std::vector<float> kX = {
    -0.25f,  1.875f,  1.625f,  1.375f, -0.375f, -0.0f,   0.75f,   -1.75f,  0.25f,   -0.875f,
    1.5f,    -1.75f,  0.75f,   1.5f,   -1.125f, 1.625f,  1.5f,    -1.875f, 0.875f,  -2.0f,
    0.0f,    -0.25f,  -1.125f, -0.75f, 1.25f,   -0.75f,  -1.375f, 0.75f,   -0.25f,  1.25f,
    -1.0f,   -0.75f,  1.25f,   0.0f,   0.0f,    -1.0f,   -2.0f,   1.75f,   -1.625f, 1.375f,
    -0.5f,   1.75f,   -0.375f, 1.75f,  0.25f,   -1.0f,   1.0f,    0.75f,   0.75f,   -0.125f,
    -1.125f, 0.625f,  -1.625f, 0.75f,  0.5f,    -0.5f,   1.25f,   -1.25f,  -0.5f,   1.25f,
    -0.5f,   0.875f,  0.5f,    1.75f,  2.0f,    0.875f,  1.25f,   -1.375f, 0.875f,  1.375f,
    -0.375f, 0.25f,   -0.125f, 1.875f, -0.75f,  -0.375f, -2.0f,   -0.375f, 0.5f,    1.75f,
    1.75f,   -0.75f,  2.0f,    -1.25f, 1.25f,   -1.375f, -0.375f, -1.75f,  1.375f,  1.375f,
    -1.5f,   0.125f,  -1.0f,   -0.0f,  0.25f,   -1.625f, 1.5f,    -0.875f, -0.25f,  -1.75f,
    -2.0f,   -1.25f,  -0.625f, 1.75f,  1.5f,    -0.125f, -0.125f, 0.625f,  1.375f,  -0.625f,
    1.125f,  -0.375f, 0.375f,  1.0f,   0.0f,    0.75f,   0.75f,   -2.0f,   -1.875f, -1.375f};
const std::vector<float> kRois = {0.5f, 1.0f, 4.0f,  3.5f, 1.0f, 0.0f,
                                  5.5f, 4.5f, -1.0f, 2.0f, 2.0f, 6.0f};

// RoiAlign-`opset` over kX and kRois, the regions taken from `batch_indices`.
OpTester RoiAlignOnSample(int opset, std::vector<int64_t> batch_indices = {0, 1, 1}) {
  OpTester tester("RoiAlign", opset);
  tester.Input<float>("x", {2, 2, 5, 6}, kX)
      .Input<float>("rois", {3, 4}, kRois)
      .Input<int64_t>("batch_indices", {3}, std::move(batch_indices));
  return tester;
}

}  // namespace

TEST_CASE("RoiAlign averages bilinear samples per bin", "[nn][RoiAlign]") {
  RoiAlignOnSample(16)
      .AttrInt("output_height", 2)
      .AttrInt("output_width", 3)
      .AttrInt("sampling_ratio", 2)
      .AttrFloat("spatial_scale", 1.0f)
      .Output<float>(
          "y", {3, 2, 2, 3},
          {-0.13444011f, -0.13647461f, 0.069580078f, 0.44140625f, -0.42805991f, 0.57486981f,
           0.23795573f,  -0.24397786f, 0.3243815f,   0.63020831f, 0.087239586f, -0.32486978f,
           0.17993164f,  1.0742188f,   0.60424805f,  0.85449219f, -0.36132812f, 0.13549805f,
           -0.2434082f,  -0.6706543f,  -0.92016602f, 0.69799805f, -0.0546875f,  -0.11108398f,
           0.09375f,     0.390625f,    1.4453125f,   0.625f,      0.921875f,    -0.921875f,
           0.1875f,      0.3984375f,   0.6328125f,   0.0f,        0.09375f,     0.65625f})
      .Run();
  RoiAlignOnSample(10)
      .AttrInt("output_height", 2)
      .AttrInt("output_width", 2)
      .AttrFloat("spatial_scale", 0.5f)
      .Output<float>(
          "y", {3, 2, 2, 2},
          {-0.56005859f, -0.18261719f, 0.0087890625f, -0.34130859f, 0.31445312f, -0.050292969f,
           0.80029297f,  0.31298828f,  -0.10559082f,  0.85339355f,  0.609375f,   -0.093505859f,
           -0.39331055f, -0.66674805f, 0.83630371f,   0.58032227f,  0.5625f,     0.3671875f,
           0.1875f,      1.203125f,    0.4375f,       0.4375f,      0.375f,      0.4921875f})
      .Run();
  RoiAlignOnSample(16)
      .AttrString("mode", "max")
      .AttrInt("output_height", 2)
      .AttrInt("output_width", 2)
      .AttrInt("sampling_ratio", 1)
      .AttrString("coordinate_transformation_mode", "output_half_pixel")
      .Output<float>("y", {3, 2, 2, 2},
                     {0.5859375f,  0.88867188f,  0.1171875f,  0.17773438f, 0.68359375f, 0.45117188f,
                      0.13671875f, 0.47851562f,  0.66992188f, 0.08203125f, 0.95703125f, 0.78125f,
                      0.1640625f,  0.029296875f, 0.61523438f, 0.234375f,   0.5f,        1.3125f,
                      1.25f,       -0.0f,        1.375f,      0.28125f,    0.0f,        0.5625f})
      .Run();
  RoiAlignOnSample(16, {0, 2, 1})
      .Output<float>("y", {3, 2, 1, 1}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f})
      .RunExpectingError("outside [0, 2)");
}

}  // namespace ort::test
