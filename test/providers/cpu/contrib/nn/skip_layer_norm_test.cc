// Expected values are numpy's: the normalizations from their mean / mean-square
// formulas in float64 (half case hand-derived).
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

namespace {

// Tensors several cases share, named by role and shape.
const std::vector<float> kX2x3x5 = {
    1.0f,  -1.5f,   1.75f,  -2.0f,   -1.0f,   -1.0f,   1.0f,   -1.5f,  1.875f, -1.25f,
    1.5f,  0.375f,  -1.0f,  -0.375f, -1.625f, -0.25f,  0.75f,  -1.25f, 1.875f, 0.625f,
    -0.5f, -0.875f, 1.125f, -0.375f, 1.875f,  -0.125f, 0.875f, 1.625f, 1.875f, -1.0f};
const std::vector<float> kSkip2x3x5 = {
    -0.25f,  0.875f, -0.375f, -0.75f,  0.5f,    1.625f,  -0.125f, -0.375f, 1.125f, 0.0f,
    -0.75f,  1.5f,   0.5f,    0.75f,   1.25f,   -1.625f, 1.5f,    -1.5f,   -2.0f,  2.0f,
    -0.875f, -2.0f,  0.875f,  -0.875f, -0.375f, 1.875f,  0.25f,   -2.0f,   0.75f,  -1.375f};
const std::vector<float> kSum2x3x5 = {
    1.0f,    -2.25f, 2.625f, -1.5f,  -0.375f, 0.875f,  -0.75f, -0.625f, 4.25f,  -1.125f,
    1.0f,    0.25f,  0.75f,  1.625f, -0.25f,  -1.625f, 0.625f, -1.5f,   1.125f, 2.75f,
    -1.125f, -4.5f,  3.25f,  0.0f,   1.625f,  2.0f,    -0.5f,  0.875f,  3.875f, -2.25f};
const std::vector<float> kSkip3x5 = {1.25f, -0.25f, 0.25f,  -0.125f, -1.5f, -1.375f, 0.125f, -1.75f,
                                     0.5f,  -0.75f, -0.25f, 1.625f,  1.5f,  -0.125f, -0.5f};
const std::vector<float> kX2x3x4 = {0.875f,  1.125f, -0.375f, 1.25f,  -0.375f, 1.625f,
                                    1.125f,  0.125f, -1.375f, 1.375f, 0.625f,  0.25f,
                                    0.875f,  2.0f,   0.125f,  -0.5f,  1.5f,    0.625f,
                                    -0.125f, -1.25f, -0.125f, 1.75f,  -0.875f, 1.875f};

}  // namespace

TEST_CASE("SkipLayerNormalization with beta, bias and every optional output",
          "[contrib][SkipLayerNormalization]") {
  OpTester("SkipLayerNormalization", 1, "com.microsoft")
      .AttrFloat("epsilon", 1e-5f)
      .Input<float>("x", {2, 3, 5}, kX2x3x5)
      .Input<float>("skip", {2, 3, 5}, kSkip2x3x5)
      .Input<float>("gamma", {5}, {-0.75f, -1.125f, 1.75f, -1.75f, 0.125f})
      .Input<float>("beta", {5}, {-0.125f, 0.25f, 0.375f, -1.625f, -0.75f})
      .Input<float>("bias", {5}, {0.25f, -1.625f, 1.25f, 1.25f, 0.125f})
      .Output<float>(
          "y", {2, 3, 5},
          {-0.5967167f,  1.6329876f,   3.1016655f,  -0.22414435f, -0.76965487f, -0.25735044f,
           0.97320062f,  -0.6396867f,  -4.9117026f, -0.8539896f,  -0.50566888f, 0.99669671f,
           0.57997555f,  -4.2213573f,  -0.9305737f, 0.73489225f,  0.012398192f, -1.4994142f,
           -2.5226068f,  -0.56331289f, 0.15295424f, 2.1101553f,   2.6366448f,   -1.7247784f,
           -0.66566348f, -0.55509752f, 0.94890845f, 0.43772256f,  -4.1966248f,  -0.93219411f})
      .Output<float>("mean", {2, 3, 1},
                     {-0.1f, 0.52499998f, 0.67500001f, 0.27500001f, -0.15000001f, 0.80000001f})
      .Output<float>("inv_std_var", {2, 3, 1},
                     {0.57177782f, 0.50419211f, 1.5617186f, 0.60343319f, 0.38010836f, 0.47788614f})
      .Output<float>("sum", {2, 3, 5}, kSum2x3x5)
      .Run();
}

TEST_CASE("SkipLayerNormalization without beta or bias, and with a broadcast skip",
          "[contrib][SkipLayerNormalization]") {
  OpTester("SkipLayerNormalization", 1, "com.microsoft")
      .Input<float>("x", {2, 3, 5}, kX2x3x5)
      .Input<float>("skip", {2, 3, 5}, kSkip2x3x5)
      .Input<float>("gamma", {5}, {-0.75f, -1.125f, 1.75f, -1.75f, 0.125f})
      .Output<float>(
          "y", {2, 3, 5},
          {-0.58209115f, 0.21828419f,  2.1299245f,   2.9633732f,   -0.013229345f, -0.1522859f,
           -0.39159232f, -2.1827645f,  -2.7665272f,  -0.11058857f, -0.28311461f,  -1.89469f,
           -1.8801713f,  0.10163088f,  -0.11614958f, 0.66377866f,  -1.1659796f,   -2.2620878f,
           0.12227502f,  0.15138812f,  0.39462224f,  1.5026001f,   2.2665482f,    0.80273581f,
           0.1281679f,   -0.51137191f, -0.36754856f, -0.91975915f, -2.0632436f,   -0.20774484f})
      .Run();
  OpTester("SkipLayerNormalization", 1, "com.microsoft")
      .Input<float>("x", {2, 3, 5}, kX2x3x5)
      .Input<float>("skip", {3, 5}, kSkip3x5)
      .Input<float>("gamma", {5}, {-0.75f, -1.125f, 1.75f, -1.75f, 0.125f})
      .OmittedInput()
      .Input<float>("bias", {5}, {0.25f, -1.625f, 1.25f, 1.25f, 0.125f})
      .Output<float>(
          "y", {2, 3, 5},
          {-0.76425105f,  1.3713664f,   2.2832298f,   0.46664551f,   -0.10475715f, 0.53318113f,
           -0.038698632f, -1.1437596f,  -3.3710809f,  -0.074530698f, -0.57660753f, 0.084381595f,
           1.6735682f,    -0.3609657f,  -0.23204938f, -0.36535278f,  1.2472388f,   -0.32335821f,
           -2.9102237f,   -0.10708616f, 0.71370965f,  1.6149193f,    0.875f,       -1.7217742f,
           0.11290322f,   0.53101701f,  0.2565082f,   2.5410814f,    -1.3860444f,  -0.16350523f})
      .OmittedOutput()
      .Output<float>("inv_std_var", {2, 3, 1},
                     {0.3809351f, 0.45865047f, 0.75005859f, 0.67191315f, 0.64516127f, 0.48001537f})
      .Output<float>(
          "sum", {2, 3, 5},
          {2.5f,    -3.375f, 3.25f,  -0.875f, -2.375f, -2.125f, -0.5f,   -2.0f,  3.625f, -1.875f,
           1.5f,    0.375f,  1.75f,  0.75f,   -2.0f,   1.25f,   -1.125f, 0.25f,  3.0f,   -0.75f,
           -1.625f, -2.375f, 0.625f, 1.375f,  1.25f,   -0.125f, 0.875f,  4.375f, 3.0f,   -1.375f})
      .Run();
  OpTester("SkipLayerNormalization", 1, "com.microsoft")
      .Input<float>("x", {2, 3, 5}, kX2x3x5)
      .Input<float>("skip", {1, 3, 5},
                    {1.25f, 0.0f, 1.0f, -1.625f, 0.875f, 0.25f, -1.25f, 1.125f, 0.125f, 1.0f,
                     1.375f, -1.0f, 1.25f, 2.0f, 0.125f})
      .Input<float>("gamma", {5}, {-0.75f, -1.125f, 1.75f, -1.75f, 0.125f})
      .Input<float>("beta", {5}, {-0.125f, 0.25f, 0.375f, -1.625f, -0.75f})
      .Output<float>(
          "y", {2, 3, 5},
          {-0.85370159f, 0.93909824f,   2.4449351f,   1.0178634f,   -0.75396031f, 0.50650907f,
           0.62316447f,  -0.42873883f,  -5.0632162f,  -0.79146272f, -1.2518827f,  1.0771798f,
           0.067305081f, -2.8557796f,   -0.91183954f, -0.55949306f, 0.063788675f, -2.2319586f,
           -0.46635175f, -0.57413375f,  0.18261367f,  1.8649718f,   2.0497856f,   -0.90723479f,
           -0.58764833f, -0.061763816f, 1.2143518f,   1.8259192f,   -4.0595932f,  -0.90984702f})
      .Run();
}

TEST_CASE("SkipSimplifiedLayerNormalization divides by the root mean square",
          "[contrib][SkipLayerNormalization]") {
  OpTester("SkipSimplifiedLayerNormalization", 1, "com.microsoft")
      .AttrFloat("epsilon", 1e-6f)
      .Input<float>("x", {2, 3, 5}, kX2x3x5)
      .Input<float>("skip", {2, 3, 5}, kSkip2x3x5)
      .Input<float>("gamma", {5}, {-0.75f, -1.125f, 1.75f, -1.75f, 0.125f})
      .Input<float>("bias", {5}, {0.25f, -1.625f, 1.25f, 1.25f, 0.125f})
      .Output<float>(
          "y", {2, 3, 5},
          {-0.42813471f, 1.4449546f,   2.6223252f,    1.4984715f,    -0.026758419f, -0.3198604f,
           0.41124907f,  -0.53310066f, -3.6250844f,   -0.068541512f, -0.80611336f,  -0.3022925f,
           1.4106984f,   -3.0565131f,  -0.033588056f, 0.72551376f,   -0.41856563f,  -1.5626451f,
           -1.1719838f,  0.20463209f,  0.3201966f,    1.9211797f,    2.1583622f,    -0.0f,
           0.07708437f,  -0.66956604f, 0.25108728f,   0.68351537f,   -3.0269966f,   -0.12554364f})
      .OmittedOutput()
      .Output<float>("inv_std_var", {2, 3, 1},
                     {0.57084626f, 0.48740631f, 1.0748178f, 0.59529334f, 0.37949225f, 0.44637737f})
      .Output<float>("sum", {2, 3, 5}, kSum2x3x5)
      .Run();
  OpTester("SkipSimplifiedLayerNormalization", 1, "com.microsoft")
      .Input<float>("x", {3, 5},
                    {1.0f, -1.5f, 1.75f, -2.0f, -1.0f, -1.0f, 1.0f, -1.5f, 1.875f, -1.25f, 1.5f,
                     0.375f, -1.0f, -0.375f, -1.625f})
      .Input<float>("skip", {3, 5}, kSkip3x5)
      .Input<float>("gamma", {5}, {-0.75f, -1.125f, 1.75f, -1.75f, 0.125f})
      .Output<float>("y", {3, 5},
                     {-0.78867841f, 0.92012483f, 1.6357775f, 1.7380135f, -0.14605156f, 0.76498008f,
                      -0.54353845f, -2.4425681f, -1.7849535f, -0.10736562f, -0.64454305f,
                      -1.5469034f, 0.60157353f, 0.60157353f, -0.18262053f})
      .Run();
}

TEST_CASE("SimplifiedLayerNormalization (ai.onnx, ORT) is RMS normalization",
          "[contrib][SimplifiedLayerNormalization]") {
  OpTester("SimplifiedLayerNormalization", 1)
      .Input<float>("x", {2, 3, 4}, kX2x3x4)
      .Input<float>("scale", {4}, {1.75f, 1.375f, -0.75f, 1.25f})
      .Output<float>(
          "y", {2, 3, 4},
          {1.5847647f,   1.6009358f,  0.29107925f,   1.6171069f,   -0.65117913f, 2.2171099f,
           -0.83723032f, 0.15504265f, -2.3386974f,   1.8375479f,   -0.4555904f,  0.30372694f,
           1.3653262f,   2.4520144f,  -0.083591402f, -0.55727601f, 2.5560265f,   0.83679438f,
           0.091286659f, -1.5214443f, -0.16127105f,  1.7739816f,   0.48381314f,  1.7279041f})
      .Output<float>("inv_std_var", {2, 3, 1},
                     {1.0349485f, 0.99227297f, 0.97192621f, 0.89164162f, 0.97372437f, 0.73723906f})
      .Run();
  OpTester("SimplifiedLayerNormalization", 13)
      .AttrInt("axis", 1)
      .AttrFloat("epsilon", 1e-3f)
      .Input<float>("x", {2, 3, 4}, kX2x3x4)
      .Input<float>("scale", {3, 4},
                    {0.75f, 1.625f, -0.375f, 0.5f, 1.75f, 1.75f, 1.875f, -1.625f, -2.0f, -1.625f,
                     2.0f, -0.375f})
      .Output<float>(
          "y", {2, 3, 4},
          {0.65507054f,  1.8248395f,   0.14037226f,   0.62387675f,  -0.65507054f, 2.838639f,
           2.1055839f,   -0.20275994f, 2.7450576f,    -2.2303593f,  1.2477535f,   -0.093581513f,
           0.55760473f,  2.761471f,    -0.039828911f, -0.21242085f, 2.2304189f,   0.92934126f,
           -0.19914456f, 1.7259195f,   0.21242085f,   -2.4162872f,  -1.486946f,   -0.59743369f})
      .Run();
}

TEST_CASE("LayerNormalization runs at ORT opsets before 17", "[contrib][LayerNormalization]") {
  OpTester("LayerNormalization", 1)
      .Input<float>("x", {2, 3, 4}, kX2x3x4)
      .Input<float>("scale", {4}, {1.75f, 1.375f, -0.75f, 1.25f})
      .Input<float>("b", {4}, {0.375f, -0.375f, -1.75f, 1.75f})
      .Output<float>(
          "y", {2, 3, 4},
          {0.79843712f, 0.4900215f,    -0.4796887f,  2.7783473f,  -1.8385767f,  1.3642389f,
           -2.2243378f, 0.95943689f,   -2.399188f,   1.2063649f,  -2.0530627f,  1.7888541f,
           0.84480655f, 1.6552354f,    -1.3473086f,  0.23990758f, 2.6497567f,   0.22076963f,
           -1.517882f,  -0.029571597f, -0.77671057f, 0.89188164f, -0.78256315f, 3.0333347f})
      .Output<float>("mean", {2, 3, 1}, {0.71875f, 0.625f, 0.21875f, 0.625f, 0.1875f, 0.65625f})
      .Output<float>("inv_std_dev", {2, 3, 1},
                     {1.5485699f, 1.2649009f, 0.99466687f, 1.0738435f, 0.99037027f, 0.84239399f})
      .Run();
  OpTester("LayerNormalization", 13)
      .Input<float>("x", {2, 3, 4}, kX2x3x4)
      .Input<float>("scale", {4}, {1.75f, 1.375f, -0.75f, 1.25f})
      .Output<float>(
          "y", {2, 3, 4},
          {0.42343709f,  0.86502153f,  1.2703114f,  1.0283473f,  -2.2135766f,  1.7392389f,
           -0.47433785f, -0.79056311f, -2.774188f,  1.5813649f,  -0.30306256f, 0.038854174f,
           0.46980652f,  2.0302353f,   0.4026913f,  -1.5100924f, 2.2747567f,   0.59576964f,
           0.23211804f,  -1.7795717f,  -1.1517105f, 1.2668816f,  0.96743685f,  1.2833346f})
      .Run();
}

TEST_CASE("SkipLayerNormalization rejects misshaped skip and gamma",
          "[contrib][SkipLayerNormalization]") {
  OpTester("SkipLayerNormalization", 1, "com.microsoft")
      .Input<float>("x", {1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("skip", {1, 2, 3}, {1, 2, 3, 4, 5, 6})
      .Input<float>("gamma", {2}, {1, 1})
      .Output<float>("y", {1, 2, 2}, {0, 0, 0, 0})
      .RunExpectingError("must be input's shape");
  OpTester("SkipLayerNormalization", 1, "com.microsoft")
      .Input<float>("x", {1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("skip", {1, 2, 2}, {1, 2, 3, 4})
      .Input<float>("gamma", {3}, {1, 1, 1})
      .Output<float>("y", {1, 2, 2}, {0, 0, 0, 0})
      .RunExpectingError("gamma [3] must be [2]");
}

TEST_CASE("SkipLayerNormalization computes half types", "[contrib][SkipLayerNormalization]") {
  // s = [1, 2, 3, 4]: mean 2.5, variance 1.25, (s - 2.5) / sqrt(1.25).
  OpTester("SkipLayerNormalization", 1, "com.microsoft")
      .Input<Float16>("x", {1, 4}, {Float16(1.0f), Float16(1.0f), Float16(1.0f), Float16(1.0f)})
      .Input<Float16>("skip", {1, 4}, {Float16(0.0f), Float16(1.0f), Float16(2.0f), Float16(3.0f)})
      .Input<Float16>("gamma", {4}, {Float16(1.0f), Float16(1.0f), Float16(1.0f), Float16(1.0f)})
      .Output<Float16>(
          "y", {1, 4},
          {Float16(-1.3416408f), Float16(-0.4472136f), Float16(0.4472136f), Float16(1.3416408f)})
      .Output<float>("mean", {1, 1}, {2.5f})
      .SetTolerance(1e-3, 1e-3)
      .Run();
}

}  // namespace ort::test
