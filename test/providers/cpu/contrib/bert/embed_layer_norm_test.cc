// Expected values are numpy's (float64): s = W[ids] + P[positions] (+ T[segment_ids]), then
// (s - mean) / sqrt(var + epsilon) * gamma + beta over the hidden axis; mask_index counts ones.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

const std::vector<float> kWord = {-1.25f, 0.0f,    1.875f,  1.375f,  0.875f, 0.625f, -1.875f,
                                  1.0f,   -0.125f, -1.625f, -1.0f,   0.125f, 0.875f, 0.0f,
                                  0.5f,   1.5f,    0.75f,   -0.625f, 0.625f, 0.375f};
const std::vector<float> kPosition = {-1.625f, -1.875f, 0.625f, -0.5f, 0.375f,  -0.75f,
                                      -1.125f, -1.5f,   -0.5f,  1.25f, -0.375f, -0.5f,
                                      0.25f,   2.0f,    -0.5f,  0.375f};
const std::vector<float> kSegment = {-0.25f, 0.375f, -0.25f, 0.625f, 0.25f, 0.75f, 1.875f, -1.5f};
const std::vector<float> kGamma = {0.25f, -0.25f, -0.625f, -1.125f};
const std::vector<float> kBeta = {-1.875f, -0.375f, 1.375f, -1.625f};

// EmbedLayerNormalization of `input_ids` through kWord and kPosition, without segments.
OpTester WithoutSegments(std::vector<int64_t> dims, std::vector<int32_t> input_ids) {
  OpTester tester("EmbedLayerNormalization", 1, "com.microsoft");
  tester.Input<int32_t>("input_ids", std::move(dims), std::move(input_ids))
      .OmittedInput()
      .ConstantInput<float>("word_embedding", {5, 4}, kWord)
      .ConstantInput<float>("position_embedding", {4, 4}, kPosition)
      .OmittedInput()
      .ConstantInput<float>("gamma", {4}, kGamma)
      .ConstantInput<float>("beta", {4}, kBeta);
  return tester;
}

}  // namespace

TEST_CASE("EmbedLayerNormalization sums word, position and segment embeddings",
          "[contrib][EmbedLayerNormalization]") {
  OpTester("EmbedLayerNormalization", 1, "com.microsoft")
      .AttrFloat("epsilon", 1e-5f)
      .Input<int32_t>("input_ids", {2, 3}, {4, 0, 2, 1, 3, 3})
      .Input<int32_t>("segment_ids", {2, 3}, {0, 1, 1, 1, 0, 0})
      .ConstantInput<float>("word_embedding", {5, 4}, kWord)
      .ConstantInput<float>("position_embedding", {4, 4}, kPosition)
      .ConstantInput<float>("segment_embedding", {2, 4}, kSegment)
      .ConstantInput<float>("gamma", {4}, kGamma)
      .ConstantInput<float>("beta", {4}, kBeta)
      .Input<int32_t>("mask", {2, 3}, {1, 1, 0, 1, 1, 1})
      .Output<float>(
          "output", {2, 3, 4},
          {-2.0123279f, -0.037922163f, 0.65714908f, -2.4676945f,  -1.9892933f, -0.36009216f,
           0.36872175f, -0.39510435f,  -1.8832647f, -0.56508809f, 0.81713283f, 0.19736609f,
           -1.9406071f, -0.30939293f,  0.35809058f, -0.38502657f, -1.5737029f, -0.2191567f,
           2.1801903f,  -2.4198008f,   -2.0852962f, -0.62353188f, 2.0919187f,  -2.7433934f})
      .Output<int32_t>("mask_index", {2}, {2, 3})
      .Output<float>("embedding_sum", {2, 3, 4},
                     {-1.125f, -2.125f, 1.0f,    0.5f,    -0.625f, 0.0f,   2.625f,  -1.625f,
                      -0.375f, 0.375f,  0.5f,    -1.875f, -0.5f,   -0.5f,  0.625f,  -1.0f,
                      1.0f,    -0.375f, -0.875f, 0.625f,  0.125f,  1.625f, -0.125f, 1.625f})
      .Threads(2)
      .Run();
}

TEST_CASE("EmbedLayerNormalization with shared position_ids and no segments",
          "[contrib][EmbedLayerNormalization]") {
  WithoutSegments({2, 3}, {4, 0, 2, 1, 3, 3})
      .AttrFloat("epsilon", 1e-5f)
      .OmittedInput()
      .Input<int32_t>("position_ids", {1, 3}, {3, 1, 0})
      .Output<float>(
          "output", {2, 3, 4},
          {-1.7719821f, -0.68405378f, 2.3193312f,  -1.4704731f,   -2.1178186f, -0.18074517f,
           0.40372586f, -1.8435367f,  -1.9236791f, 0.014432725f,  0.82736021f, -2.6107516f,
           -1.8161079f, -0.63580787f, 2.4056118f,  -2.0414512f,   -1.4707826f, -0.14824393f,
           1.8433006f,  -1.6693653f,  -1.9996883f, -0.025872843f, 0.75155866f, -2.634975f})
      .Output<int32_t>("mask_index", {2}, {0, 0})
      .Run();
}

TEST_CASE("EmbedLayerNormalization rejects an id outside its table",
          "[contrib][EmbedLayerNormalization]") {
  WithoutSegments({1, 2}, {4, 5})
      .Output<float>("output", {1, 2, 4}, std::vector<float>(8, 0.0f))
      .RunExpectingError("out of its embedding's range");
}

}  // namespace ort::test
