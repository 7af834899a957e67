// Expected values from numpy.fft (pasted as literals).
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("DFT of a real signal of non-power-of-two length", "[signal][DFT]") {
  OpTester("DFT", 17)
      .Input<float>("x", {2, 6, 1},
                    {-0.83, -0.53, 0.6, 0.16, -0.81, -0.13, -0.04, -0.68, 0.47, -0.77, -0.22, 0.03})
      .Output<float>("y", {2, 6, 2}, {-1.54, 0, -1.215, -0.87468566, -0.235, 1.567506,
                                      -0.54, 0, -0.235, -1.567506,   -1.215, 0.87468566,
                                      -1.21, 0, 0.28,   0.017320508, -0.61,  1.2124356,
                                      1.63,  0, -0.61,  -1.2124356,  0.28,   -0.017320508})
      .Run();
}

TEST_CASE("DFT zero-pads or truncates to dft_length and keeps one side", "[signal][DFT]") {
  const std::vector<float> x = {-0.14, 0.17, 0.48, 0.91, -0.43};
  OpTester("DFT", 17)
      .AttrInt("onesided", 1)
      .Input<float>("x", {1, 5, 1}, x)
      .Input<int64_t>("dft_length", {}, {8})
      .Output<float>(
          "y", {1, 5, 2},
          {0.99, 0, -0.23325902, -1.2436753, -1.05, 0.74, 0.81325902, -0.28367532, -1.17, 0})
      .Run();
  OpTester("DFT", 17)
      .Input<float>("x", {1, 5, 1}, x)
      .Input<int32_t>("dft_length", {}, {3})
      .Output<float>("y", {1, 3, 2}, {0.51, 0, -0.465, 0.26846788, -0.465, -0.26846788})
      .Run();
}

TEST_CASE("DFT inverse of a complex signal along axis 2", "[signal][DFT]") {
  OpTester("DFT", 17)
      .AttrInt("inverse", 1)
      .AttrInt("axis", -2)
      .Input<float>("x", {1, 2, 3, 2},
                    {0.3, -0.37, 0.39, 0.78, -0.41, 0.17, -1, -0.06, 0.95, 0.55, -0.4, -0.94})
      .Output<float>("y", {1, 2, 3, 2},
                     {0.093333333, 0.19333333, -0.072758499, -0.050726559, 0.27942517, -0.51260677,
                      -0.15, -0.15, -0.85512595, 0.43471143, 0.0051259505, -0.34471143})
      .Run();
}

TEST_CASE("DFT 20 takes the axis as an input, -2 by default", "[signal][DFT]") {
  // The case above with the axis given as an input, then left at its default.
  const std::vector<float> x = {0.3, -0.37, 0.39, 0.78, -0.41, 0.17,
                                -1,  -0.06, 0.95, 0.55, -0.4,  -0.94};
  const std::vector<float> y = {0.093333333, 0.19333333,  -0.072758499, -0.050726559,
                                0.27942517,  -0.51260677, -0.15,        -0.15,
                                -0.85512595, 0.43471143,  0.0051259505, -0.34471143};
  OpTester("DFT", 20)
      .AttrInt("inverse", 1)
      .Input<float>("x", {1, 2, 3, 2}, x)
      .OmittedInput()
      .Input<int64_t>("axis", {}, {2})
      .Output<float>("y", {1, 2, 3, 2}, y)
      .Run();
  OpTester("DFT", 20)
      .AttrInt("inverse", 1)
      .Input<float>("x", {1, 2, 3, 2}, x)
      .Output<float>("y", {1, 2, 3, 2}, y)
      .Run();
}

TEST_CASE("DFT of prime length in double and float16", "[signal][DFT]") {
  const std::vector<double> x = {0.414,  -0.404, -0.252, 0.484,  -0.818, 0.444, 0.321,
                                 -0.563, 0.863,  0.66,   -0.586, 0.315,  0.26,  0.366};
  const std::vector<double> y = {0.202,      1.302,      -0.64795783,  0.73132494, 3.4306424,
                                 -1.2417503, -1.974047,  -0.14900481,  0.5099426,  -1.2873538,
                                 1.4001417,  -1.1912491, -0.022721833, -0.99196702};
  OpTester("DFT", 17).Input<double>("x", {1, 7, 2}, x).Output<double>("y", {1, 7, 2}, y).Run();
  std::vector<Float16> xh, yh;
  for (double v : x) xh.push_back(Float16(static_cast<float>(v)));
  for (double v : y) yh.push_back(Float16(static_cast<float>(v)));
  OpTester("DFT", 17)
      .Input<Float16>("x", {1, 7, 2}, xh)
      .Output<Float16>("y", {1, 7, 2}, yh)
      .SetTolerance(5e-3, 5e-3)
      .Run();
}

TEST_CASE("DFT handles empty batches and rejects bad shapes", "[signal][DFT]") {
  OpTester("DFT", 17).Input<float>("x", {0, 4, 1}, {}).Output<float>("y", {0, 4, 2}, {}).Run();
  OpTester("DFT", 17)
      .Input<float>("x", {1, 2, 3}, {1, 2, 3, 4, 5, 6})
      .Output<float>("y", {1, 2, 2}, {0, 0, 0, 0})
      .RunExpectingError("1 or 2");
  OpTester("DFT", 17)
      .AttrInt("axis", 2)
      .Input<float>("x", {1, 2, 1}, {1, 2})
      .Output<float>("y", {1, 2, 2}, {0, 0, 0, 0})
      .RunExpectingError("out of range");
  OpTester("DFT", 17)
      .Input<float>("x", {1, 2, 1}, {1, 2})
      .Input<int64_t>("dft_length", {}, {0})
      .Output<float>("y", {1, 2, 2}, {0, 0, 0, 0})
      .RunExpectingError("positive");
}

TEST_CASE("STFT with a window and onesided output", "[signal][STFT]") {
  OpTester("STFT", 17)
      .Input<float>("signal", {1, 10, 1},
                    {0.64, -0.14, 0.52, 0.76, -0.8, 0.7, -0.21, -0.04, -0.71, 0.4})
      .Input<int64_t>("frame_step", {}, {3})
      .Input<float>("window", {4}, {0, 0.5, 1, 0.5})
      .Output<float>("output", {1, 3, 3, 2},
                     {0.83, 0, -0.52, 0.45, 0.21, 0, 0.195, 0, -0.7, 0.295, 1.205, 0, -0.53, 0,
                      0.71, 0.22, -0.89, 0})
      .Run();
}

TEST_CASE("STFT of a complex signal with frame_length and two-sided output", "[signal][STFT]") {
  OpTester("STFT", 17)
      .AttrInt("onesided", 0)
      .Input<float>("signal", {2, 7, 2},
                    {-0.42, -0.66, 0.74,  0.93,  -0.45, 0.25,  0.12, 0.21,  -0.2, 0.94,
                     0.23,  0.57,  -0.61, 0.58,  -0.64, -0.89, 0.49, -0.26, 0.5,  -0.83,
                     0.13,  -0.61, 0.84,  -0.57, -0.59, 0.72,  0.7,  -0.75})
      .Input<int32_t>("frame_step", {}, {2})
      .OmittedInput()
      .Input<int32_t>("frame_length", {}, {3})
      .Output<float>("output", {2, 3, 3, 2},
                     {-0.13, 0.52,  0.023897275,  -2.2805702,  -1.1538973,   -0.21942977,
                      -0.53, 1.4,   -1.0421985,   -0.60212813, 0.22219854,   -0.047871871,
                      -0.58, 2.09,  -0.018660254, -0.36246134, -0.001339746, 1.0924613,
                      0.35,  -1.98, -0.64136552,  -0.33633975, -1.6286345,   -0.35366025,
                      1.47,  -2.01, -0.019641016, 0.37487804,  0.049641016,  -0.85487804,
                      0.95,  -0.6,  2.0580573,    0.56217277,  -0.48805734,  -1.6721728})
      .Run();
}

TEST_CASE("STFT rejects inconsistent frame settings", "[signal][STFT]") {
  OpTester("STFT", 17)
      .Input<float>("signal", {1, 4, 1}, {1, 2, 3, 4})
      .Input<int64_t>("frame_step", {}, {1})
      .OmittedInput()
      .Input<int64_t>("frame_length", {}, {5})
      .Output<float>("output", {1, 1, 3, 2}, {0, 0, 0, 0, 0, 0})
      .RunExpectingError("frame_length 5");
  OpTester("STFT", 17)
      .Input<float>("signal", {1, 4, 1}, {1, 2, 3, 4})
      .Input<int64_t>("frame_step", {}, {1})
      .Input<float>("window", {2}, {1, 1})
      .Input<int64_t>("frame_length", {}, {3})
      .Output<float>("output", {1, 1, 2, 2}, {0, 0, 0, 0})
      .RunExpectingError("differs from the window length");
  OpTester("STFT", 17)
      .Input<float>("signal", {1, 4, 1}, {1, 2, 3, 4})
      .Input<int64_t>("frame_step", {}, {0})
      .Input<float>("window", {2}, {1, 1})
      .Output<float>("output", {1, 1, 2, 2}, {0, 0, 0, 0})
      .RunExpectingError("frame_step must be positive");
}

}  // namespace ort::test
