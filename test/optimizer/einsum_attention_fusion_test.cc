// The extended level's Einsum attention fusion: torchvision MaxViT's window / grid attention (one
// qkv Linear on [B, G, P, D] sliced into q, k, v heads [B, G, N, P, h], 5-D Einsums for the
// scores and the context, a constant relative position bias) into com.microsoft Attention over
// the B*G groups; and the look-alikes whose fusion would change the result.
#include <algorithm>
#include <array>
#include <limits>

#include "lib/onnx/model_loader.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr int64_t kGroups = 2, kTokens = 4, kChannels = 6, kHeads = 2, kHeadSize = 4;
constexpr int64_t kHidden = kHeads * kHeadSize;

struct EinsumOptions {
  std::string scores_equation = "B G H I D, B G H J D -> B G H I J";
  std::string context_equation = "B G H I J, B G H J D -> B G H I D";
  bool relative_bias = true;
  // The bias's group dimension: 1 in MaxViT ([1, N, P, P]); kGroups varies it along G.
  int64_t bias_groups = 1;
  // The factor on the keys (MaxViT's k * feat_dim**-0.5); none leaves the scores unscaled.
  bool scale_keys = true;
  // q, k, v taken by one Split (torch.chunk at a static width) instead of three Slices.
  bool split = false;
  // The third of the projection each of q, k, v slices (MaxViT: 0, 1, 2).
  std::array<int64_t, 3> thirds{0, 1, 2};
};

// RelativePositionalMultiHeadAttention on x [B, G, P, D] (B dynamic) as torch 1.13 exports it,
// its reshape targets folded to constants, without the merge Linear.
Model EinsumAttentionModel(const EinsumOptions& options = {}) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType(
      "x",
      ValueType::Tensor(DataType::kFloat,
                        SymbolicShape({Dimension::Symbol("batch"), Dimension::Known(kGroups),
                                       Dimension::Known(kTokens), Dimension::Known(kChannels)})));
  graph.AddInitializer("qkv_weight", RandomTensor({kChannels, 3 * kHidden}, 1, -1.0f, 1.0f));
  graph.AddInitializer("qkv_bias", RandomTensor({3 * kHidden}, 2, -1.0f, 1.0f));
  graph.AddNode({"qkv", "MatMul", "", {"x", "qkv_weight"}, {"qkv_mm"}, {}});
  graph.AddNode({"qkv_add", "Add", "", {"qkv_bias", "qkv_mm"}, {"qkv_out"}, {}});
  Ints(graph, "axes", {-1});
  Ints(graph, "heads_shape", {0, kGroups, kTokens, kHeads, kHeadSize});
  const char* names[] = {"q", "k", "v"};
  if (options.split) {
    graph.AddNode({"chunk", "Split", "", {"qkv_out"}, {"q_sliced", "k_sliced", "v_sliced"}, {}})
        .SetAttribute(Attribute::Int("axis", -1));
  }
  for (int64_t i = 0; i < 3; ++i) {
    const std::string part = names[i];
    if (!options.split) {
      // torch.chunk's last Slice ends past the end.
      const int64_t third = options.thirds[static_cast<size_t>(i)];
      const int64_t end = third == 2 ? std::numeric_limits<int64_t>::max() : (third + 1) * kHidden;
      graph.AddNode({part + "_slice",
                     "Slice",
                     "",
                     {"qkv_out", Ints(graph, part + "_start", {third * kHidden}),
                      Ints(graph, part + "_end", {end}), "axes"},
                     {part + "_sliced"},
                     {}});
    }
    graph.AddNode(
        {part + "_reshape", "Reshape", "", {part + "_sliced", "heads_shape"}, {part + "_5d"}, {}});
    graph.AddNode({part + "_transpose", "Transpose", "", {part + "_5d"}, {part}, {}})
        .SetAttribute(Attribute::Ints("perm", {0, 1, 3, 2, 4}));
  }
  std::string keys = "k";
  if (options.scale_keys) {
    graph.AddInitializer("scale", Tensor::Scalar<float>(0.3f));
    graph.AddNode({"scale_k", "Mul", "", {"k", "scale"}, {"k_scaled"}, {}});
    keys = "k_scaled";
  }
  graph.AddNode({"qk", "Einsum", "", {"q", keys}, {"scores"}, {}})
      .SetAttribute(Attribute::String("equation", options.scores_equation));
  std::string scores = "scores";
  if (options.relative_bias) {
    graph.AddInitializer(
        "relative", RandomTensor({options.bias_groups, kHeads, kTokens, kTokens}, 3, -1.0f, 1.0f));
    graph.AddNode({"add_relative", "Add", "", {scores, "relative"}, {"scores_biased"}, {}});
    scores = "scores_biased";
  }
  graph.AddNode({"softmax", "Softmax", "", {scores}, {"probs"}, {}})
      .SetAttribute(Attribute::Int("axis", -1));
  graph.AddNode({"pv", "Einsum", "", {"probs", "v"}, {"context"}, {}})
      .SetAttribute(Attribute::String("equation", options.context_equation));
  graph.AddNode({"merge", "Transpose", "", {"context"}, {"context_t"}, {}})
      .SetAttribute(Attribute::Ints("perm", {0, 1, 3, 2, 4}));
  Ints(graph, "out_shape", {-1, kGroups, kTokens, kHidden});
  graph.AddNode({"out", "Reshape", "", {"context_t", "out_shape"}, {"y"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.ResolveOuterScope();
  InferModelTypes(model);
  return model;
}

std::vector<NamedValue> Feeds(int64_t batch) {
  return {{"x", Value(RandomTensor({batch, kGroups, kTokens, kChannels}, 11))}};
}

// Runs the model unoptimized and at extended for each batch; the fused run executes one
// Attention and no Einsum.
void CheckFusedMatches(const EinsumOptions& options, std::vector<int64_t> batches) {
  for (int64_t batch : batches) {
    INFO("B = " << batch);
    const auto plain =
        RunOnCpu(EinsumAttentionModel(options), OptimizationLevel::kDisable, Feeds(batch));
    const auto fused =
        RunOnCpu(EinsumAttentionModel(options), OptimizationLevel::kExtended, Feeds(batch));
    CHECK(std::count(fused.executed.begin(), fused.executed.end(), "Attention") == 1);
    CHECK(std::count(fused.executed.begin(), fused.executed.end(), "Einsum") == 0);
    CHECK(std::count(fused.executed.begin(), fused.executed.end(), "Softmax") == 0);
    CheckClose(fused.output, plain.output, 1e-5, 1e-4);
  }
}

// The Attention feeding the Reshape back to [B, G, P, N*h].
const Node& FusedAttention(const Graph& graph) {
  return *graph.Producer(graph.Producer("y")->inputs()[0]);
}

}  // namespace

TEST_CASE("fuse_einsum_attention takes a MaxViT block over the batch's groups",
          "[optimizer][bert]") {
  Model model = EinsumAttentionModel();
  OptimizeExtended(model);
  const Graph& graph = model.graph();
  REQUIRE(CountOps(graph, "Attention") == 1);
  CHECK(CountOps(graph, "Einsum") == 0);
  // x to [B*G, P, D] and the result back to [B, G, P, N*h].
  CHECK(CountOps(graph, "Reshape") == 2);
  const Node& fused = FusedAttention(graph);
  CHECK(fused.domain() == "com.microsoft");
  REQUIRE(fused.inputs().size() == 6);
  CHECK(fused.inputs()[1] == "qkv_weight");
  CHECK(fused.inputs()[2] == "qkv_bias");
  const Tensor* bias = graph.GetInitializer(fused.inputs()[5]);
  REQUIRE(bias != nullptr);
  CHECK(bias->shape() == TensorShape({1, kHeads, kTokens, kTokens}));
  CHECK(fused.FindAttribute("num_heads")->i == kHeads);
  REQUIRE(fused.FindAttribute("scale") != nullptr);
  CHECK(fused.FindAttribute("scale")->f == 0.3f);
  CheckFusedMatches({}, {1, 3});
}

TEST_CASE("fuse_einsum_attention takes unscaled scores without a bias, any labels",
          "[optimizer][bert]") {
  const EinsumOptions options{.scores_equation = "abcxy,abczy->abcxz",
                              .context_equation = "abcxz,abczy->abcxy",
                              .relative_bias = false,
                              .scale_keys = false};
  Model model = EinsumAttentionModel(options);
  OptimizeExtended(model);
  REQUIRE(CountOps(model.graph(), "Attention") == 1);
  const Node& fused = FusedAttention(model.graph());
  CHECK(fused.inputs().size() == 3);
  // Einsum does not scale: Attention's default 1/sqrt(h) must not apply.
  REQUIRE(fused.FindAttribute("scale") != nullptr);
  CHECK(fused.FindAttribute("scale")->f == 1.0f);
  CheckFusedMatches(options, {2});
}

TEST_CASE("fuse_einsum_attention takes q, k and v from one Split", "[optimizer][bert]") {
  const EinsumOptions options{.split = true};
  Model model = EinsumAttentionModel(options);
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "Attention") == 1);
  CHECK(CountOps(model.graph(), "Split") == 0);
  CheckFusedMatches(options, {1, 2});
}

TEST_CASE("fuse_einsum_attention leaves blocks whose fusion would change the result",
          "[optimizer][bert]") {
  // Transposed scores, a context contracting the wrong axis, a bias that varies along the
  // groups (Attention's bias is one [N, P, P] for every B*G row), and queries and keys from
  // other thirds of the projection than Attention's weights give them.
  for (const EinsumOptions& options :
       {EinsumOptions{.scores_equation = "B G H I D, B G H J D -> B G H J I"},
        EinsumOptions{.context_equation = "B G H I J, B G H I D -> B G H J D"},
        EinsumOptions{.bias_groups = kGroups}, EinsumOptions{.thirds = {1, 0, 2}},
        EinsumOptions{.thirds = {0, 2, 1}}}) {
    INFO(options.scores_equation << " / " << options.context_equation);
    Model model = EinsumAttentionModel(options);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "Attention") == 0);
    CHECK(CountOps(model.graph(), "Softmax") == 1);
  }
}

}  // namespace ort::test
