#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kY1x1x3x3 = {1.833333f, 3.166667f, 4.5f,      7.166667f, 8.5f,
                                      9.833333f, 12.5f,     13.83333f, 15.16667f};

const std::vector<float> kImage = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

}  // namespace

// Expected values below come from the numpy reference of the ONNX backend tests
// (onnx/backend/test/case/node/resize.py: interpolate_nd with the matching coefficients).

TEST_CASE("Resize linear and cubic with sizes and scales", "[tensor][Resize]") {
  OpTester("Resize", 13)
      .AttrString("mode", "linear")
      .Input<float>("x", {1, 1, 4, 4}, kImage)
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("sizes", {4}, {1, 1, 3, 3})
      .Output<float>("y", {1, 1, 3, 3}, kY1x1x3x3)
      .Run();
  OpTester("Resize", 13)
      .AttrString("mode", "cubic")
      .AttrFloat("cubic_coeff_a", -0.5f)
      .AttrInt("exclude_outside", 1)
      .Input<float>("x", {1, 1, 4, 4}, kImage)
      .OmittedInput()
      .Input<float>("scales", {4}, {1, 1, 0.8f, 0.8f})
      .Output<float>("y", {1, 1, 3, 3},
                     {1.368127f, 2.669501f, 4.013337f, 6.573625f, 7.875f, 9.218835f, 11.94897f,
                      13.25034f, 14.59418f})
      .Run();
  OpTester("Resize", 13)
      .AttrString("mode", "linear")
      .AttrString("coordinate_transformation_mode", "align_corners")
      .Input<float>("x", {1, 1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("roi", {0}, {})
      .Input<float>("scales", {4}, {1, 1, 2, 2})
      .Output<float>("y", {1, 1, 4, 4},
                     {1, 1.333333f, 1.666667f, 2, 1.666667f, 2, 2.333333f, 2.666667f, 2.333333f,
                      2.666667f, 3, 3.333333f, 3, 3.333333f, 3.666667f, 4})
      .Run();
  OpTester("Resize", 13)
      .AttrString("mode", "cubic")
      .AttrString("coordinate_transformation_mode", "asymmetric")
      .Input<double>("x", {1, 4}, {1, 2, 3, 4})
      .OmittedInput()
      .Input<float>("scales", {2}, {1, 1.5f})
      .Output<double>("y", {1, 6}, {1, 1.574074, 2.37037, 3, 3.740741, 4.111111})
      .Run();
}

TEST_CASE("Resize tf_crop_and_resize extrapolates outside the box", "[tensor][Resize]") {
  const std::vector<float> roi = {0, 0, 0.4f, 0.6f, 1, 1, 1.2f, 1.7f};
  OpTester("Resize", 13)
      .AttrString("mode", "linear")
      .AttrString("coordinate_transformation_mode", "tf_crop_and_resize")
      .AttrFloat("extrapolation_value", 10.0f)
      .Input<float>("x", {1, 1, 4, 4}, kImage)
      .Input<float>("roi", {8}, roi)
      .OmittedInput()
      .Input<int64_t>("sizes", {4}, {1, 1, 3, 3})
      .Output<float>("y", {1, 1, 3, 3}, {7.6f, 10, 10, 12.4f, 10, 10, 10, 10, 10})
      .Run();
  OpTester("Resize", 13)
      .AttrString("coordinate_transformation_mode", "tf_crop_and_resize")
      .AttrFloat("extrapolation_value", 10.0f)
      .Input<int32_t>("x", {1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
      .Input<float>("roi", {8}, roi)
      .OmittedInput()
      .Input<int64_t>("sizes", {4}, {1, 1, 3, 3})
      .Output<int32_t>("y", {1, 1, 3, 3}, {7, 10, 10, 11, 10, 10, 10, 10, 10})
      .Run();
}

TEST_CASE("Resize nearest rounding modes", "[tensor][Resize]") {
  OpTester("Resize", 13)
      .AttrString("coordinate_transformation_mode", "asymmetric")
      .AttrString("nearest_mode", "round_prefer_ceil")
      .Input<float>("x", {1, 4}, {1, 2, 3, 4})
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("sizes", {2}, {1, 7})
      .Output<float>("y", {1, 7}, {1, 2, 2, 3, 3, 4, 4})
      .Run();
  OpTester("Resize", 13)
      .AttrString("nearest_mode", "floor")
      .Input<std::string>("x", {1, 4}, {"a", "b", "c", "d"})
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("sizes", {2}, {1, 7})
      .Output<std::string>("y", {1, 7}, {"a", "a", "a", "b", "c", "c", "d"})
      .Run();
  OpTester("Resize", 11)
      .AttrString("coordinate_transformation_mode", "tf_half_pixel_for_nn")
      .Input<float>("x", {1, 4}, {1, 2, 3, 4})
      .Input<float>("roi", {0}, {})
      .Input<float>("scales", {2}, {1, 0.5f})
      .Output<float>("y", {1, 2}, {2, 4})
      .Run();
}

TEST_CASE("Resize rounds and saturates integer interpolation", "[tensor][Resize]") {
  // The reference gives {0, 159.375, 196.875, 100}; integers round to nearest.
  OpTester("Resize", 13)
      .AttrString("mode", "linear")
      .Input<uint8_t>("x", {1, 3}, {0, 255, 100})
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("sizes", {2}, {1, 4})
      .Output<uint8_t>("y", {1, 4}, {0, 159, 197, 100})
      .Run();
}

TEST_CASE("Resize opset 18 axes, aspect ratio policy and antialias", "[tensor][Resize]") {
  OpTester("Resize", 18)
      .AttrString("mode", "linear")
      .AttrInts("axes", {2, 3})
      .AttrString("keep_aspect_ratio_policy", "not_larger")
      .Input<float>("x", {1, 1, 4, 4}, kImage)
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("sizes", {2}, {3, 2})
      .Output<float>("y", {1, 1, 2, 2}, {3.5f, 5.5f, 11.5f, 13.5f})
      .Run();
  OpTester("Resize", 18)
      .AttrString("mode", "linear")
      .AttrInts("axes", {-1, -2})
      .AttrString("keep_aspect_ratio_policy", "not_smaller")
      .Input<float>("x", {1, 1, 4, 4}, kImage)
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("sizes", {2}, {3, 2})
      .Output<float>("y", {1, 1, 3, 3}, kY1x1x3x3)
      .Run();
  // Antialiased references computed with the ONNX reference filters (_linear_coeffs_antialias,
  // _cubic_coeffs_antialias) in numpy.
  const std::vector<float> line = {1, 4, 2, 8, 5, 7, 3, 6};
  OpTester("Resize", 18)
      .AttrString("mode", "linear")
      .AttrInt("antialias", 1)
      .AttrInts("axes", {1})
      .Input<float>("x", {1, 8}, line)
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("sizes", {1}, {3})
      .Output<float>("y", {1, 3}, {2.744186f, 5.690476f, 5.093023f})
      .Run();
  OpTester("Resize", 18)
      .AttrString("mode", "cubic")
      .AttrInt("antialias", 1)
      .Input<float>("x", {1, 8}, line)
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("sizes", {2}, {1, 3})
      .Output<float>("y", {1, 3}, {2.529809f, 5.977828f, 5.122207f})
      .Run();
}

TEST_CASE("Resize-10 and Upsample use asymmetric coordinates", "[tensor][Resize][Upsample]") {
  // Upsampling floors x / scale; downsampling takes the ceiling.
  OpTester("Resize", 10)
      .Input<float>("x", {1, 4}, {1, 2, 3, 4})
      .Input<float>("scales", {2}, {1, 0.5f})
      .Output<float>("y", {1, 2}, {1, 3})
      .Run();
  OpTester("Resize", 10)
      .AttrString("mode", "linear")
      .Input<float>("x", {1, 2}, {1, 3})
      .Input<float>("scales", {2}, {1, 2})
      .Output<float>("y", {1, 4}, {1, 2, 3, 3})
      .Run();
  OpTester("Upsample", 9)
      .Input<int32_t>("x", {1, 2}, {1, 2})
      .Input<float>("scales", {2}, {2, 2})
      .Output<int32_t>("y", {2, 4}, {1, 1, 2, 2, 1, 1, 2, 2})
      .Run();
  OpTester("Upsample", 7)
      .AttrString("mode", "linear")
      .AttrFloats("scales", {1, 2})
      .Input<float>("x", {1, 2}, {1, 3})
      .Output<float>("y", {1, 4}, {1, 2, 3, 3})
      .Run();
  OpTester("Upsample", 9)
      .Input<float>("x", {1, 2}, {1, 2})
      .Input<float>("scales", {2}, {1, 0.5f})
      .Output<float>("y", {1, 1}, {1})
      .RunExpectingError("invalid scale");
}

TEST_CASE("Resize rejects invalid inputs", "[tensor][Resize]") {
  OpTester("Resize", 13)
      .Input<float>("x", {1, 2}, {1, 2})
      .OmittedInput()
      .Input<float>("scales", {2}, {1, 2})
      .Input<int64_t>("sizes", {2}, {1, 4})
      .Output<float>("y", {1, 4}, {1, 1, 2, 2})
      .RunExpectingError("exactly one");
  OpTester("Resize", 13)
      .Input<float>("x", {1, 2}, {1, 2})
      .OmittedInput()
      .Input<float>("scales", {2}, {1, -2})
      .Output<float>("y", {1, 4}, {1, 1, 2, 2})
      .RunExpectingError("invalid scale");
  OpTester("Resize", 13)
      .Input<float>("x", {1, 2}, {1, 2})
      .OmittedInput()
      .Input<float>("scales", {3}, {1, 1, 2})
      .Output<float>("y", {1, 4}, {1, 1, 2, 2})
      .RunExpectingError("scales must hold 2");
  OpTester("Resize", 10)
      .AttrString("mode", "cubic")
      .Input<float>("x", {1, 2}, {1, 2})
      .Input<float>("scales", {2}, {1, 2})
      .Output<float>("y", {1, 4}, {1, 1, 2, 2})
      .RunExpectingError("unsupported mode");
  OpTester("Resize", 13)
      .AttrString("coordinate_transformation_mode", "tf_half_pixel_for_nn")
      .Input<float>("x", {1, 2}, {1, 2})
      .OmittedInput()
      .Input<float>("scales", {2}, {1, 2})
      .Output<float>("y", {1, 4}, {1, 1, 2, 2})
      .RunExpectingError("unsupported coordinate_transformation_mode");
  OpTester("Resize", 13)
      .AttrString("mode", "linear")
      .Input<float>("x", {1, 0}, {})
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("sizes", {2}, {1, 3})
      .Output<float>("y", {1, 3}, {0, 0, 0})
      .RunExpectingError("empty axis");
}

TEST_CASE("Resize bilinear 2x upsampling across threads", "[tensor][Resize]") {
  const int64_t channels = 3, height = 9, width = 13;
  std::vector<float> x(static_cast<size_t>(channels * height * width));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 101) / 7.0f;
  // Direct half_pixel bilinear: source (y + 0.5) / 2 - 0.5, neighbours clamped to the edge.
  const auto source = [](int64_t o, int64_t size, int64_t& low, int64_t& high, float& t) {
    const float s = (static_cast<float>(o) + 0.5f) / 2.0f - 0.5f;
    const float f = std::floor(s);
    t = s - f;
    low = std::clamp<int64_t>(static_cast<int64_t>(f), 0, size - 1);
    high = std::clamp<int64_t>(static_cast<int64_t>(f) + 1, 0, size - 1);
  };
  std::vector<float> expected;
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t oy = 0; oy < 2 * height; ++oy) {
      int64_t y0, y1;
      float ty;
      source(oy, height, y0, y1, ty);
      for (int64_t ox = 0; ox < 2 * width; ++ox) {
        int64_t x0, x1;
        float tx;
        source(ox, width, x0, x1, tx);
        const auto at = [&](int64_t yy, int64_t xx) {
          return x[static_cast<size_t>((c * height + yy) * width + xx)];
        };
        expected.push_back((1 - ty) * ((1 - tx) * at(y0, x0) + tx * at(y0, x1)) +
                           ty * ((1 - tx) * at(y1, x0) + tx * at(y1, x1)));
      }
    }
  }
  OpTester("Resize", 13)
      .AttrString("mode", "linear")
      .Input<float>("x", {1, channels, height, width}, x)
      .OmittedInput()
      .Input<float>("scales", {4}, {1, 1, 2, 2})
      .Output<float>("y", {1, channels, 2 * height, 2 * width}, expected)
      .Threads(2)
      .Run();
}

}  // namespace ort::test
