#include <catch2/catch.hpp>
#include <numeric>

#include "test/providers/cpu/op_tester.h"

// Expected values from a numpy transcription of the Caffe ROI pooling the spec describes.
namespace ort::test {
namespace {

// [1, 2, 6, 6]: channel 0 counts up from 0, channel 1 counts down from -36.
std::vector<float> FeatureMap() {
  std::vector<float> values(72);
  std::iota(values.begin(), values.end(), 0.0f);
  for (size_t i = 36; i < 72; ++i) values[i] = -values[i];
  return values;
}

const std::vector<float> kRois = {0, 0, 0, 3, 3, 0, 2, 1, 5, 5, 0, 1.2f, 0.6f, 2.4f, 4.2f};

}  // namespace

TEST_CASE("MaxRoiPool takes the maximum of each bin", "[nn][MaxRoiPool]") {
  OpTester("MaxRoiPool", 1)
      .AttrInts("pooled_shape", {2, 2})
      .Input<float>("x", {1, 2, 6, 6}, FeatureMap())
      .Input<float>("rois", {3, 5}, kRois)
      .Output<float>("y", {3, 2, 2, 2},
                     {7,   9,   19,  21,  -36, -38, -48, -50, 21,  23,  33,  35,
                      -44, -46, -56, -58, 13,  14,  25,  26,  -43, -44, -55, -56})
      .Run();
}

TEST_CASE("MaxRoiPool scales regions to the feature map", "[nn][MaxRoiPool]") {
  OpTester("MaxRoiPool", 1)
      .AttrInts("pooled_shape", {2, 3})
      .AttrFloat("spatial_scale", 0.5f)
      .Input<float>("x", {1, 2, 6, 6}, FeatureMap())
      .Input<float>("rois", {3, 5}, kRois)
      .Output<float>("y", {3, 2, 2, 3}, {6,  7,  8,  12, 13, 14, -36, -37, -38, -42, -43, -44,
                                         13, 14, 15, 19, 20, 21, -43, -44, -45, -49, -50, -51,
                                         7,  7,  7,  13, 13, 13, -37, -37, -37, -43, -43, -43})
      .Run();
}

TEST_CASE("MaxRoiPool rejects a region outside the batch", "[nn][MaxRoiPool]") {
  OpTester("MaxRoiPool", 1)
      .AttrInts("pooled_shape", {1, 1})
      .Input<float>("x", {1, 2, 6, 6}, FeatureMap())
      .Input<float>("rois", {1, 5}, {1, 0, 0, 2, 2})
      .Output<float>("y", {1, 2, 1, 1}, {0, 0})
      .RunExpectingError("refers to batch 1 of 1");
}

}  // namespace ort::test
