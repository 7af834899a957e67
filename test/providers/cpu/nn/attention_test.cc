#include <catch2/catch.hpp>

#include <limits>

#include "test/providers/cpu/op_tester.h"

// Expected values from numpy following the spec's reference (softmax(Q K^T * scale
// + bias) V with the cache concatenated, KV heads repeated per group, causal and padded masks).
namespace ort::test {

TEST_CASE("Attention 23 on [B, heads, S, D] with the default scale", "[nn][Attention]") {
  OpTester("Attention", 23)
      .Input<float>("q", {1, 2, 2, 4},
                    {0.25f, 0.79f, 0.55f, -0.55f, -0.4f, 0.75f, -0.99f, 0.64f, 0.59f, -0.06f,
                     -0.39f, -0.44f, -0.49f, -0.11f, 0.01f, 0.11f})
      .Input<float>("k", {1, 2, 3, 4},
                    {0.99f,  0.59f,  0.24f,  0.98f, -0.57f, -0.68f, 0.23f,  -0.91f,
                     -0.93f, 0.03f,  -0.07f, 0.83f, 0.26f,  0.03f,  -0.01f, -0.5f,
                     -0.98f, -0.62f, 0.38f,  -0.6f, -0.26f, -0.99f, 0.66f,  -0.69f})
      .Input<float>("v", {1, 2, 3, 4},
                    {-0.46f, 0.76f,  0.02f,  0.69f, 0.28f,  0.48f,  -0.82f, 0.08f,
                     0.02f,  0.74f,  -0.28f, 0.2f,  -0.88f, -0.22f, -0.35f, -0.7f,
                     0.63f,  -0.24f, 0.96f,  0.18f, 0.21f,  0.28f,  0.35f,  -0.7f})
      .Output<float>("y", {1, 2, 2, 4},
                     {-0.08773242f, 0.6591265f, -0.3419955f, 0.3597954f, -0.1087246f, 0.703741f,
                      -0.2626073f, 0.3556978f, -0.1161216f, -0.06220669f, 0.2325298f, -0.4621638f,
                      0.0701776f, -0.06175096f, 0.3927578f, -0.3572018f})
      .Run();
}

TEST_CASE("Attention 23 grouped, causal, with a cache, on 3-D inputs", "[nn][Attention]") {
  OpTester("Attention", 23)
      .AttrInt("q_num_heads", 4)
      .AttrInt("kv_num_heads", 2)
      .AttrInt("is_causal", 1)
      .Input<float>("q", {1, 2, 8},
                    {-0.12f, -0.52f, -0.2f, -0.81f, 0.94f, -0.57f, 0.34f, -0.4f, 0.75f, 0.32f,
                     -0.74f, 0.69f, 0.89f, 0.81f, 0.14f, -0.71f})
      .Input<float>("k", {1, 2, 4}, {-0.62f, 0.86f, 0.1f, -0.64f, 0.77f, 0.28f, 0.14f, -0.25f})
      .Input<float>("v", {1, 2, 6},
                    {-0.18f, -0.52f, -0.92f, 0.75f, -0.06f, 0.1f, -0.36f, 0.5f, -0.95f, -0.26f,
                     -0.94f, -0.75f})
      .OmittedInput()
      .Input<float>("past_key", {1, 2, 1, 2}, {0.93f, 0.32f, -0.14f, 0.05f})
      .Input<float>("past_value", {1, 2, 1, 3}, {0.75f, -0.31f, 0.18f, 0.37f, -0.29f, 0.04f})
      .Output<float>(
          "y", {1, 2, 12},
          {0.3005795f, -0.411482f,   -0.3515726f, 0.3059307f,   -0.4102737f, -0.3452432f,
           0.6009237f, -0.1502304f,  0.07646163f, 0.5838947f,   -0.1605375f, 0.07377284f,
           0.1382881f, -0.04698077f, -0.4743541f, -0.03223639f, -0.2602073f, -0.7061796f,
           0.2497987f, -0.4595571f,  -0.2277675f, 0.3143464f,   -0.411832f,  -0.1953277f})
      .Output<float>(
          "present_key", {1, 2, 3, 2},
          {0.93f, 0.32f, -0.62f, 0.86f, 0.77f, 0.28f, -0.14f, 0.05f, 0.1f, -0.64f, 0.14f, -0.25f})
      .Output<float>("present_value", {1, 2, 3, 3},
                     {0.75f, -0.31f, 0.18f, -0.18f, -0.52f, -0.92f, -0.36f, 0.5f, -0.95f, 0.37f,
                      -0.29f, 0.04f, 0.75f, -0.06f, 0.1f, -0.26f, -0.94f, -0.75f})
      .Run();
}

TEST_CASE("Attention 23 masks, softcap and the score outputs", "[nn][Attention]") {
  // A boolean mask shorter than the keys (the third key is masked), softcap 2 and scale 0.5,
  // with each stage of the scores as qk_matmul_output: after softcap (mode 1: numpy
  // 2 * tanh(0.5 * q k^T / 2)), after the mask (mode 2, hidden keys reading as the lowest float,
  // as ONNX Runtime reports them) and the softmax (mode 3).
  const float lowest = std::numeric_limits<float>::lowest();
  const std::vector<std::pair<int64_t, std::vector<float>>> stages = {
      {1, {-0.0532374f, -0.1347954f, 0.2150653f, 0.5535294f, -0.5221748f, 0.3270862f}},
      {2, {-0.0532374f, lowest, lowest, 0.5535294f, -0.5221748f, lowest}},
      {3, {1, 0, 0, 0.7456802f, 0.2543198f, 0}},
  };
  for (const auto& [mode, scores] : stages) {
    OpTester("Attention", 23)
        .AttrFloat("scale", 0.5f)
        .AttrFloat("softcap", 2.0f)
        .AttrInt("qk_matmul_output_mode", mode)
        .Input<float>("q", {1, 1, 2, 2}, {0.53f, 0.82f, -0.7f, 0.87f})
        .Input<float>("k", {1, 1, 3, 2}, {-0.99f, 0.51f, 0.62f, -0.73f, -0.16f, 0.63f})
        .Input<float>("v", {1, 1, 3, 2}, {-0.97f, 0.26f, 0.59f, 0.03f, 0.45f, -0.55f})
        .Input<bool>("mask", {2, 2}, {true, false, true, true})
        .Output<float>("y", {1, 1, 2, 2}, {-0.97f, 0.26f, -0.5732611f, 0.2015065f})
        .OmittedOutput()
        .OmittedOutput()
        .Output<float>("qk", {1, 1, 2, 3}, scores)
        .Run();
  }
  // An additive mask per key, and the scaled Q K^T as qk_matmul_output (mode 0).
  OpTester("Attention", 23)
      .Input<float>("q", {1, 1, 2, 2}, {-0.6f, -0.27f, -0.64f, -0.31f})
      .Input<float>("k", {1, 1, 3, 2}, {0.9f, 0.15f, -0.32f, -0.46f, 0.9f, -0.11f})
      .Input<float>("v", {1, 1, 3, 2}, {0.96f, 0.03f, 0.04f, 0.79f, 0.49f, 0.16f})
      .Input<float>("mask", {1, 1, 1, 3}, {0.0f, -1.0f, 0.5f})
      .Output<float>("y", {1, 1, 2, 2}, {0.5360876f, 0.2495851f, 0.5306596f, 0.2549839f})
      .OmittedOutput()
      .OmittedOutput()
      .Output<float>("qk", {1, 1, 2, 3},
                     {-0.4104755f, 0.2235872f, -0.3608366f, -0.440174f, 0.2456489f, -0.3831812f})
      .Run();
}

TEST_CASE("Attention 24 hides padded keys and aligns causality to the valid ones",
          "[nn][Attention]") {
  // numpy: per sample, keys j >= length and j > length - S_q + i are hidden (lengths 2 and 3).
  OpTester("Attention", 24)
      .AttrInt("is_causal", 1)
      .AttrInt("qk_matmul_output_mode", 3)
      .Input<float>("q", {2, 1, 2, 2}, {0.5f, -0.3f, 0.8f, 0.1f, -0.6f, 0.4f, 0.2f, 0.9f})
      .Input<float>("k", {2, 1, 3, 2},
                    {0.3f, 0.7f, -0.5f, 0.2f, 0.9f, -0.4f, 0.1f, -0.8f, 0.6f, 0.5f, -0.2f, 0.3f})
      .Input<float>("v", {2, 1, 3, 2}, {1, 2, 3, 4, 5, 6, -1, 0.5f, 2, -3, 0.25f, 1})
      .OmittedInput()
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("nonpad_kv_seqlen", {2}, {2, 3})
      .Output<float>(
          "y", {2, 1, 2, 2},
          {1, 2, 1.7607751f, 2.7607751f, 0.6164379f, -1.3858442f, 0.815619f, -0.9162771f})
      .OmittedOutput()
      .OmittedOutput()
      .Output<float>("qk", {2, 1, 2, 3},
                     {1, 0, 0, 0.6196125f, 0.3803875f, 0, 0.4611874f, 0.5388126f, 0, 0.1857036f,
                      0.4558563f, 0.35844f})
      .Run();
  OpTester("Attention", 24)
      .Input<float>("q", {1, 1, 1, 2}, {1, 0})
      .Input<float>("k", {1, 1, 2, 2}, {1, 0, 0, 1})
      .Input<float>("v", {1, 1, 2, 2}, {1, 0, 0, 1})
      .OmittedInput()
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("nonpad_kv_seqlen", {1}, {3})
      .Output<float>("y", {1, 1, 1, 2}, {0, 0})
      .RunExpectingError("nonpad_kv_seqlen[0] = 3 is outside [0, 2]");
}

TEST_CASE("Attention 25 slides a window and zeroes rows with no key to see", "[nn][Attention]") {
  // numpy: query i sees keys i - 2 .. i + 1 (left 2, right 1, no cache, not causal).
  OpTester("Attention", 25)
      .AttrInt("left_window_size", 2)
      .AttrInt("right_window_size", 1)
      .AttrInt("qk_matmul_output_mode", 3)
      .Input<float>("q", {1, 1, 4, 2}, {0.5f, -0.3f, 0.8f, 0.1f, -0.6f, 0.4f, 0.2f, 0.9f})
      .Input<float>("k", {1, 1, 6, 2},
                    {0.3f, 0.7f, -0.5f, 0.2f, 0.9f, -0.4f, 0.1f, -0.8f, 0.6f, 0.5f, -0.2f, 0.3f})
      .Input<float>("v", {1, 1, 6, 2}, {1, 2, 3, 4, 5, 6, -1, 0.5f, 2, -3, 0.25f, 1})
      .Output<float>("y", {1, 1, 4, 2},
                     {1.9118411f, 2.9118411f, 3.2053207f, 4.2053207f, 1.9389255f, 3.0406928f,
                      2.4625618f, 1.3181262f})
      .OmittedOutput()
      .OmittedOutput()
      .Output<float>("qk", {1, 1, 4, 6}, {0.5440794f, 0.4559206f, 0, 0, 0, 0,          0.3432938f,
                                          0.2107522f, 0.4459541f, 0, 0, 0, 0.2857869f, 0.34836f,
                                          0.1623186f, 0.2035345f, 0, 0, 0, 0.2616289f, 0.2176916f,
                                          0.150714f,  0.3699654f, 0})
      .Run();
  // Causal with one valid key for two queries: query 0 sees none (offset -1), a zero row.
  OpTester("Attention", 25)
      .AttrInt("is_causal", 1)
      .AttrInt("qk_matmul_output_mode", 3)
      .Input<float>("q", {1, 1, 2, 2}, {0.5f, -0.3f, 0.8f, 0.1f})
      .Input<float>("k", {1, 1, 3, 2}, {0.3f, 0.7f, -0.5f, 0.2f, 0.9f, -0.4f})
      .Input<float>("v", {1, 1, 3, 2}, {1, 2, 3, 4, 5, 6})
      .OmittedInput()
      .OmittedInput()
      .OmittedInput()
      .Input<int64_t>("nonpad_kv_seqlen", {1}, {1})
      .Output<float>("y", {1, 1, 2, 2}, {0, 0, 1, 2})
      .OmittedOutput()
      .OmittedOutput()
      .Output<float>("qk", {1, 1, 2, 3}, {0, 0, 0, 1, 0, 0})
      .Run();
  OpTester("Attention", 25)
      .AttrInt("left_window_size", -2)
      .Input<float>("q", {1, 1, 1, 2}, {1, 0})
      .Input<float>("k", {1, 1, 1, 2}, {1, 0})
      .Input<float>("v", {1, 1, 1, 2}, {1, 0})
      .Output<float>("y", {1, 1, 1, 2}, {1, 0})
      .RunExpectingError("left_window_size and right_window_size must be -1 or more");
}

}  // namespace ort::test
