#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values from numpy following the spec's reference (transpose to [B, S, heads, D],
// rotate halves or interleaved pairs, transpose back), cos/sin of hand-picked angles.
namespace ort::test {

TEST_CASE("RotaryEmbedding with position ids on [B, heads, S, D]", "[nn][RotaryEmbedding]") {
  OpTester("RotaryEmbedding", 23)
      .Input<float>("x", {1, 2, 3, 4},
                    {-1.4375f, -1.3125f, -1.1875f, -1.0625f, -0.9375f, -0.8125f, -0.6875f, -0.5625f,
                     -0.4375f, -0.3125f, -0.1875f, -0.0625f, 0.0625f,  0.1875f,  0.3125f,  0.4375f,
                     0.5625f,  0.6875f,  0.8125f,  0.9375f,  1.0625f,  1.1875f,  1.3125f,  1.4375f})
      .Input<float>("cos", {3, 2}, {1, 1, 0.9553365f, 0.9950042f, 0.3623578f, 0.7648422f})
      .Input<float>("sin", {3, 2}, {0, 0, 0.2955202f, 0.09983341f, 0.9320391f, -0.6442177f})
      .Input<int64_t>("position_ids", {1, 3}, {0, 2, 1})
      .Output<float>("y", {1, 2, 3, 4},
                     {-1.4375f,   -1.3125f,    -1.1875f,    -1.0625f,    0.3010665f,  -0.9838067f,
                      -1.122908f, 0.09320314f, -0.3625497f, -0.3046992f, -0.3084157f, -0.0933857f,
                      0.0625f,    0.1875f,     0.3125f,     0.4375f,     -0.5534555f, 1.129783f,
                      0.8186877f, 0.2741399f,  0.6271747f,  1.038057f,   1.567869f,   1.548871f})
      .Run();
}

TEST_CASE("RotaryEmbedding interleaved on [B, S, hidden]", "[nn][RotaryEmbedding]") {
  OpTester("RotaryEmbedding", 23)
      .AttrInt("interleaved", 1)
      .AttrInt("num_heads", 2)
      .Input<float>("x", {1, 2, 8},
                    {-1.75f, -1.5f, -1.25f, -1, -0.75f, -0.5f, -0.25f, 0, 0.25f, 0.5f, 0.75f, 1,
                     1.25f, 1.5f, 1.75f, 2})
      .Input<float>("cos", {1, 2, 2}, {0.8775826f, 0.9689124f, 0.5403023f, -0.4161468f})
      .Input<float>("sin", {1, 2, 2}, {0.4794255f, -0.247404f, 0.841471f, 0.9092974f})
      .Output<float>("y", {1, 2, 8},
                     {-0.8166312f, -2.155369f, -1.458544f, -0.6596575f, -0.4184741f, -0.7983604f,
                      -0.2422281f, 0.06185099f, -0.2856599f, 0.4805189f, -1.221408f, 0.2658262f,
                      -0.5868286f, 1.862292f, -2.546852f, 0.7589768f})
      .Run();
}

TEST_CASE("RotaryEmbedding rotates only rotary_embedding_dim channels", "[nn][RotaryEmbedding]") {
  OpTester("RotaryEmbedding", 23)
      .AttrInt("rotary_embedding_dim", 4)
      .Input<float>("x", {1, 1, 2, 6},
                    {-1.666667f, -1.333333f, -1, -0.6666667f, -0.3333333f, 0, 0.3333333f,
                     0.6666667f, 1, 1.333333f, 1.666667f, 2})
      .Input<float>("cos", {1, 2, 2}, {0.921061f, 0.62161f, 0.4535961f, 0.9800666f})
      .Input<float>("sin", {1, 2, 2}, {0.3894183f, 0.7833269f, -0.8912073f, 0.1986693f})
      .Output<float>("y", {1, 1, 2, 6},
                     {-1.145683f, -0.3065954f, -1.570092f, -1.458843f, -0.3333333f, 0, 1.042406f,
                      0.3884853f, 0.156527f, 1.439202f, 1.666667f, 2})
      .Run();
  OpTester("RotaryEmbedding", 23)
      .Input<float>("x", {1, 1, 1, 4}, {1, 2, 3, 4})
      .Input<float>("cos", {2, 2}, {1, 1, 1, 1})
      .Input<float>("sin", {2, 2}, {0, 0, 0, 0})
      .Input<int64_t>("position_ids", {1, 1}, {2})
      .Output<float>("y", {1, 1, 1, 4}, {1, 2, 3, 4})
      .RunExpectingError("outside the cache of 2 rows");
}

}  // namespace ort::test
