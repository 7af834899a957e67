// Expected values are numpy's (float64): qkv = x @ W + b split into N heads, then
// softmax(scale * Q K^T + where(masked, mask_filter_value, 0)) V per head, heads concatenated.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

// B=2, S=3, D=4 input; W [4,12] and b [12] give Q, K, V of hidden 4 (2 heads of 2).
const std::vector<float> kX = {1.875f,  0.5f,    0.75f,   1.625f,  0.375f,  1.125f,
                               1.375f,  -1.125f, -1.875f, -0.875f, -0.875f, 1.5f,
                               1.75f,   -2.0f,   0.0f,    1.375f,  -1.5f,   1.25f,
                               -1.625f, -0.125f, 1.25f,   -0.75f,  -0.625f, -0.875f};
const std::vector<float> kW = {
    0.875f, -1.0f, 2.0f,    -0.25f,  -0.125f, 0.0f,    0.375f,  0.25f,   0.0f,   2.0f,
    1.25f,  1.25f, 0.875f,  0.5f,    -0.625f, 2.0f,    -0.125f, -1.125f, 1.375f, -1.375f,
    1.5f,   0.5f,  -1.625f, -1.875f, -0.25f,  -1.875f, -1.5f,   0.0f,    2.0f,   -0.125f,
    1.25f,  1.75f, 1.375f,  0.5f,    -0.25f,  0.0f,    -1.0f,   0.0f,    -0.5f,  -1.0f,
    2.0f,   -2.0f, -1.625f, -1.25f,  1.875f,  0.75f,   1.625f,  -1.25f};
const std::vector<float> kB = {0.875f, -0.5f,   0.0f,   -2.0f, 0.5f,   1.375f,
                               0.625f, -1.375f, 0.125f, -1.0f, 1.875f, 1.625f};
// With key 2 of batch 0 masked (mask_filter_value -10000).
const std::vector<float> kMaskedOutput = {
    4.953124f,    4.5937486f,  4.2860842f,   1.0817719f,  4.953125f,   4.59375f,
    5.3916435f,   1.0243104f,  1.5937501f,   0.15625022f, 5.859375f,   1.0f,
    -0.46684086f, -4.1815119f, -1.828125f,   -2.4375f,    -3.4878445f, 0.16523314f,
    9.4396954f,   5.837584f,   -0.29690591f, 2.5309391f,  -1.8279692f, -2.4372573f};

OpTester AttentionTester() {
  OpTester tester("Attention", 1, "com.microsoft");
  tester.AttrInt("num_heads", 2).SetTolerance(1e-4, 1e-4);
  tester.Input<float>("input", {2, 3, 4}, kX)
      .ConstantInput<float>("weights", {4, 12}, kW)
      .ConstantInput<float>("bias", {12}, kB);
  return tester;
}

}  // namespace

TEST_CASE("Attention with a raw 2-D mask and with the equivalent key lengths",
          "[contrib][Attention]") {
  AttentionTester()
      .Input<int32_t>("mask_index", {2, 3}, {1, 1, 0, 1, 1, 1})
      .Output<float>("output", {2, 3, 4}, kMaskedOutput)
      .Threads(2)
      .Run();
  AttentionTester()
      .Input<int32_t>("mask_index", {2}, {2, 3})
      .Output<float>("output", {2, 3, 4}, kMaskedOutput)
      .Run();
}

TEST_CASE("Attention without a mask, and unidirectional", "[contrib][Attention]") {
  AttentionTester()
      .Output<float>(
          "output", {2, 3, 4},
          {4.9500656f,   4.5876107f,  4.1962328f,   0.81158471f, 4.9529371f,  4.5933728f,
           3.6553931f,   -0.9020676f, 1.5931052f,   0.15368758f, 3.6093755f,  -0.95312458f,
           -0.46684086f, -4.1815119f, -1.828125f,   -2.4375f,    -3.4878445f, 0.16523314f,
           9.4396954f,   5.837584f,   -0.29690591f, 2.5309391f,  -1.8279692f, -2.4372573f})
      .Run();
  AttentionTester()
      .AttrInt("unidirectional", 1)
      .Output<float>("output", {2, 3, 4},
                     {4.953125f,  4.59375f,   5.859375f,    1.0f,        4.953125f,    4.59375f,
                      5.3916435f, 1.0243104f, 1.5931052f,   0.15368758f, 3.6093755f,   -0.95312458f,
                      -0.296875f, 2.53125f,   9.546875f,    5.84375f,    -0.29707703f, 2.5232425f,
                      9.5418882f, 5.8401194f, -0.29690591f, 2.5309391f,  -1.8279692f,  -2.4372573f})
      .Run();
}

TEST_CASE("Attention with a 3-D mask, a custom scale and mask_filter_value",
          "[contrib][Attention]") {
  AttentionTester()
      .AttrFloat("scale", 0.25f)
      .AttrFloat("mask_filter_value", -1e9f)
      .Input<int32_t>("mask_index", {2, 3, 3},
                      {1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0})
      .Output<float>(
          "output", {2, 3, 4},
          {4.634253f,    3.9538074f,  5.0520067f,  0.29915947f,  4.9479966f, 4.5869756f,
           3.7770257f,   1.1082302f,  1.5166498f,  -0.15009475f, 3.6093638f, -0.95311999f,
           -0.55469286f, -2.9072804f, -1.8280523f, -2.4373879f,  -3.5f,      0.15625f,
           3.390625f,    5.6875f,     -0.296875f,  2.53125f,     9.546875f,  5.84375f})
      .Run();
}

TEST_CASE("Attention hides later keys with the lowest float and adds mask_filter_value once",
          "[contrib][Attention]") {
  // As ONNX Runtime 1.30: padding adds mask_filter_value (-1 here, so key 1 of batch 0 keeps a
  // weight for queries that may see it), causally hidden keys get the lowest float added.
  AttentionTester()
      .AttrInt("unidirectional", 1)
      .AttrFloat("mask_filter_value", -1.0f)
      .Input<int32_t>("mask_index", {2, 3}, {1, 0, 1, 1, 1, 1})
      .Output<float>("output", {2, 3, 4},
                     {4.953125f,  4.59375f,   5.859375f,    1.0f,       4.953125f,    4.59375f,
                      5.6802597f, 1.0093095f, 1.5919989f,   0.1492912f, 3.6093755f,   -0.95312458f,
                      -0.296875f, 2.53125f,   9.546875f,    5.84375f,   -0.29707703f, 2.5232425f,
                      9.5418882f, 5.8401194f, -0.29690591f, 2.5309391f, -1.8279692f,  -2.4372573f})
      .Run();
}

TEST_CASE("Attention rejects a mask that fits no supported form", "[contrib][Attention]") {
  AttentionTester()
      .Input<int32_t>("mask_index", {3}, {1, 2, 3})
      .Output<float>("output", {2, 3, 4}, std::vector<float>(24, 0.0f))
      .RunExpectingError("mask_index shape");
}

}  // namespace ort::test
