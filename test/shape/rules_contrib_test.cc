// Shape rules of the com.microsoft ops the fusions make, checked against the shapes ONNX Runtime's
// contrib op documentation gives.
#include "test/shape/shape_test_util.h"

namespace ort::test {

TEST_CASE("com.microsoft fused ops keep their inputs' symbolic shapes", "[shape]") {
  ShapeGraph g;
  const std::string ms(kMsDomain);
  g.Input("x", {"batch", "seq", int64_t{768}});
  g.Input("qkv_weights", {int64_t{768}, int64_t{2304}});
  g.Input("qkv_bias", {int64_t{2304}});
  g.Input("mask", {"batch", "seq"}, DataType::kInt32);
  g.Add("Attention", {"x", "qkv_weights", "qkv_bias", "mask"}, {"attention"}, ms);
  Node& sized = g.Add("Attention", {"x", "qkv_weights", "qkv_bias"}, {"sized"}, ms);
  sized.SetAttribute(Attribute::Ints("qkv_hidden_sizes", {768, 768, 768}));
  g.Input("skip", {"batch", "seq", int64_t{768}});
  g.Input("gamma", {int64_t{768}});
  g.Add("SkipLayerNormalization", {"x", "skip", "gamma"}, {"normalized", "mean", "inv_std", "sum"},
        ms);
  g.Input("w", {int64_t{3072}, int64_t{768}});
  Node& fused = g.Add("FusedMatMul", {"x", "w"}, {"fused"}, ms);
  fused.SetAttribute(Attribute::Int("transB", 1));
  g.Add("BiasGelu", {"fused", "qkv_bias"}, {"gelu"}, ms);
  g.Input("ids", {"batch", "seq"}, DataType::kInt32);
  g.Input("words", {int64_t{30522}, int64_t{768}});
  g.Add("EmbedLayerNormalization", {"ids", "", "words"},
        {"embedded", "mask_index", "embedding_sum"}, ms);
  g.Input("image", {"n", int64_t{3}, "h", "w"});
  g.Input("filters", {int64_t{8}, int64_t{3}, int64_t{1}, int64_t{1}});
  g.Add("FusedConv", {"image", "filters"}, {"conv"}, ms);
  g.Add("Attention", {"x"}, {"bad_attention"}, ms);

  CHECK(g.Shape("attention") == "[batch,seq,768]");
  CHECK(g.Shape("sized") == "[batch,seq,768]");
  CHECK(g.Shape("normalized") == "[batch,seq,768]");
  CHECK(g.Shape("mean") == "[batch,seq,1]");
  CHECK(g.Shape("sum") == "[batch,seq,768]");
  CHECK(g.Shape("fused") == "[batch,seq,3072]");
  CHECK(g.Shape("gelu") == "[batch,seq,3072]");
  CHECK(g.Shape("embedded") == "[batch,seq,768]");
  CHECK(g.Shape("mask_index") == "[batch]");
  CHECK(g.Shape("conv") == "[n,8,h,w]");
  CHECK(g.Shape("bad_attention") == "?");
}

TEST_CASE("MultiHeadAttention's outputs follow its query, keys and past", "[shape]") {
  ShapeGraph g;
  const std::string ms(kMsDomain);
  g.Input("query", {"batch", "seq", int64_t{64}});
  g.Input("key", {"batch", "kv", int64_t{64}});
  g.Input("value", {"batch", "kv", int64_t{96}});
  g.Input("past_key", {"batch", int64_t{4}, "past", int64_t{16}});
  g.Input("past_value", {"batch", int64_t{4}, "past", int64_t{24}});
  g.Input("key_heads", {"batch", int64_t{4}, "kv", int64_t{16}});
  Node& cross = g.Add("MultiHeadAttention", {"query", "key", "value"}, {"cross", "", "", "qk"}, ms);
  cross.SetAttribute(Attribute::Int("num_heads", 4));
  Node& cached =
      g.Add("MultiHeadAttention", {"query", "key", "value", "", "", "", "past_key", "past_value"},
            {"cached", "present_key", "present_value"}, ms);
  cached.SetAttribute(Attribute::Int("num_heads", 4));
  Node& heads = g.Add("MultiHeadAttention", {"query", "key_heads", "key_heads"}, {"heads"}, ms);
  heads.SetAttribute(Attribute::Int("num_heads", 4));
  g.Add("MultiHeadAttention", {"query", "key", "value"}, {"no_heads"}, ms);

  CHECK(g.Shape("cross") == "[batch,seq,96]");
  CHECK(g.Shape("qk") == "[batch,4,seq,kv]");
  CHECK(g.Shape("cached") == "[batch,seq,96]");
  CHECK(g.Shape("present_key") == "[batch,4,kv+past,16]");
  CHECK(g.Shape("present_value") == "[batch,4,kv+past,24]");
  CHECK(g.Shape("heads") == "[batch,seq,64]");
  CHECK(g.Shape("no_heads") == "?");
}

}  // namespace ort::test
