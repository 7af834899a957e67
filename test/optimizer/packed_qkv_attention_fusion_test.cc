// The extended level's packed-QKV attention fusion: torchvision Swin's window attention (one qkv
// Linear split by Reshape + Transpose + Gather, a relative position bias, and in shifted blocks a
// per-window mask under a [B, W, N, S, T] view) into com.microsoft Attention; and the look-alikes
// whose fusion would change the result.
#include <algorithm>

#include "lib/onnx/model_loader.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr int64_t kTokens = 4, kChannels = 6, kHeads = 2, kHeadSize = 4;
constexpr int64_t kHidden = kHeads * kHeadSize;

struct WindowOptions {
  bool qkv_bias = true;
  bool relative_bias = true;
  // W windows per image: a shifted block's mask [1, W, 1, S, S] under the windowed view; 0 for
  // none.
  int64_t windows = 0;
  // The mask's leading dimension: 1 in Swin; 2 would broadcast it along the images.
  int64_t mask_images = 1;
  // The relative bias's leading dimension: 1 in Swin; more varies it along the batch.
  int64_t relative_batch = 1;
  // The scale on the queries (Swin) or as a Div of the scores (timm-style).
  bool scale_scores = false;
  // Which Gather feeds the queries, keys and values (Swin: 0, 1, 2).
  std::array<int64_t, 3> parts{0, 1, 2};
  // The parts taken by Split + Squeeze (timm's qkv.unbind(0)) instead of Gathers.
  bool unbind = false;
};

// The attention of x [B', S, C] (B' dynamic) as torchvision's shifted_window_attention writes it.
Model WindowAttentionModel(const WindowOptions& options = {}) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType(
      "x", ValueType::Tensor(DataType::kFloat, SymbolicShape({Dimension::Symbol("windows_batch"),
                                                              Dimension::Known(kTokens),
                                                              Dimension::Known(kChannels)})));
  graph.AddInitializer("qkv_weight", RandomTensor({kChannels, 3 * kHidden}, 1, -1.0f, 1.0f));
  graph.AddNode({"qkv", "MatMul", "", {"x", "qkv_weight"}, {"qkv_mm"}, {}});
  std::string projected = "qkv_mm";
  if (options.qkv_bias) {
    graph.AddInitializer("qkv_bias", RandomTensor({3 * kHidden}, 2, -1.0f, 1.0f));
    graph.AddNode({"qkv_add", "Add", "", {"qkv_bias", "qkv_mm"}, {"qkv_out"}, {}});
    projected = "qkv_out";
  }
  Ints(graph, "qkv_shape", {0, kTokens, 3, kHeads, kHeadSize});
  graph.AddNode({"split", "Reshape", "", {projected, "qkv_shape"}, {"qkv_5d"}, {}});
  graph.AddNode({"heads", "Transpose", "", {"qkv_5d"}, {"packed"}, {}})
      .SetAttribute(Attribute::Ints("perm", {2, 0, 3, 1, 4}));
  const char* names[] = {"q", "k", "v"};
  if (options.unbind) {
    Ints(graph, "ones", {1, 1, 1});
    Ints(graph, "axis0", {0});
    graph.AddNode({"unbind", "Split", "", {"packed", "ones"}, {"q_1", "k_1", "v_1"}, {}})
        .SetAttribute(Attribute::Int("axis", 0));
  }
  for (size_t i = 0; i < 3; ++i) {
    const std::string part = names[i];
    if (options.unbind) {
      graph.AddNode({part + "_squeeze", "Squeeze", "", {part + "_1", "axis0"}, {part}, {}});
      continue;
    }
    graph.AddInitializer(part + "_index", Tensor::Scalar<int64_t>(options.parts[i]));
    graph.AddNode({part + "_gather", "Gather", "", {"packed", part + "_index"}, {part}, {}})
        .SetAttribute(Attribute::Int("axis", 0));
  }
  std::string query = "q";
  graph.AddInitializer("scale", Tensor::Scalar<float>(0.3f));
  if (!options.scale_scores) {
    graph.AddNode({"scale_q", "Mul", "", {"q", "scale"}, {"q_scaled"}, {}});
    query = "q_scaled";
  }
  graph.AddNode({"k_t", "Transpose", "", {"k"}, {"k_transposed"}, {}})
      .SetAttribute(Attribute::Ints("perm", {0, 1, 3, 2}));
  graph.AddNode({"qk", "MatMul", "", {query, "k_transposed"}, {"scores"}, {}});
  std::string scores = "scores";
  if (options.scale_scores) {
    graph.AddInitializer("divisor", Tensor::Scalar<float>(3.0f));
    graph.AddNode({"scale_scores", "Div", "", {"scores", "divisor"}, {"scores_scaled"}, {}});
    scores = "scores_scaled";
  }
  if (options.relative_bias) {
    graph.AddInitializer(
        "relative",
        RandomTensor({options.relative_batch, kHeads, kTokens, kTokens}, 3, -1.0f, 1.0f));
    graph.AddNode({"add_relative", "Add", "", {scores, "relative"}, {"scores_biased"}, {}});
    scores = "scores_biased";
  }
  if (options.windows > 0) {
    // Swin's shifted-window mask: 0 within a region, -100 across regions.
    std::vector<float> mask(
        static_cast<size_t>(options.mask_images * options.windows * kTokens * kTokens));
    for (size_t i = 0; i < mask.size(); ++i) mask[i] = (i * 7 % 5 < 2) ? -100.0f : 0.0f;
    graph.AddInitializer(
        "mask", Tensor::FromVector<float>(
                    {options.mask_images, options.windows, 1, kTokens, kTokens}, std::span(mask)));
    Ints(graph, "view_shape", {-1, options.windows, kHeads, kTokens, kTokens});
    Ints(graph, "back_shape", {-1, kHeads, kTokens, kTokens});
    graph.AddNode({"view", "Reshape", "", {scores, "view_shape"}, {"scores_5d"}, {}});
    graph.AddNode({"add_mask", "Add", "", {"scores_5d", "mask"}, {"masked_5d"}, {}});
    graph.AddNode({"back", "Reshape", "", {"masked_5d", "back_shape"}, {"masked"}, {}});
    scores = "masked";
  }
  graph.AddNode({"softmax", "Softmax", "", {scores}, {"probs"}, {}})
      .SetAttribute(Attribute::Int("axis", -1));
  graph.AddNode({"pv", "MatMul", "", {"probs", "v"}, {"context"}, {}});
  graph.AddNode({"merge", "Transpose", "", {"context"}, {"context_t"}, {}})
      .SetAttribute(Attribute::Ints("perm", {0, 2, 1, 3}));
  Ints(graph, "out_shape", {0, kTokens, kHidden});
  graph.AddNode({"out", "Reshape", "", {"context_t", "out_shape"}, {"y"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.ResolveOuterScope();
  InferModelTypes(model);
  return model;
}

std::vector<NamedValue> Feeds(int64_t windows_batch) {
  return {{"x", Value(RandomTensor({windows_batch, kTokens, kChannels}, 11))}};
}

// Runs the model unoptimized and at `level` for each batch; the fused run executes one Attention.
void CheckFusedMatches(const WindowOptions& options, std::vector<int64_t> batches,
                       OptimizationLevel level = OptimizationLevel::kExtended) {
  for (int64_t batch : batches) {
    INFO("B' = " << batch);
    const auto plain =
        RunOnCpu(WindowAttentionModel(options), OptimizationLevel::kDisable, Feeds(batch));
    const auto fused = RunOnCpu(WindowAttentionModel(options), level, Feeds(batch));
    CHECK(std::count(fused.executed.begin(), fused.executed.end(), "Attention") == 1);
    CHECK(std::count(fused.executed.begin(), fused.executed.end(), "Softmax") == 0);
    CheckClose(fused.output, plain.output, 1e-5, 1e-4);
  }
}

const Node& Fused(const Model& model) { return *model.graph().Producer("y"); }

}  // namespace

TEST_CASE("fuse_packed_qkv_attention takes a Swin window block with a relative bias",
          "[optimizer][bert]") {
  Model model = WindowAttentionModel();
  OptimizeExtended(model);
  REQUIRE(CountOps(model.graph(), "Attention") == 1);
  CHECK(model.graph().NodeCount() == 1);
  const Node& fused = Fused(model);
  CHECK(fused.domain() == "com.microsoft");
  REQUIRE(fused.inputs().size() == 6);
  CHECK(fused.inputs()[0] == "x");
  CHECK(fused.inputs()[1] == "qkv_weight");
  CHECK(fused.inputs()[2] == "qkv_bias");
  // The relative bias as it is: [1, N, S, S] broadcasts over the windows.
  const Tensor* bias = model.graph().GetInitializer(fused.inputs()[5]);
  REQUIRE(bias != nullptr);
  CHECK(bias->shape() == TensorShape({1, kHeads, kTokens, kTokens}));
  CHECK(fused.FindAttribute("num_heads")->i == kHeads);
  // The factor on the queries; 1/sqrt(head size) would be left to the kernel's default.
  REQUIRE(fused.FindAttribute("scale") != nullptr);
  CHECK(fused.FindAttribute("scale")->f == 0.3f);
  CheckFusedMatches({}, {1, 3});
}

TEST_CASE("fuse_packed_qkv_attention tiles a shifted block's window mask over the images",
          "[optimizer][bert]") {
  const WindowOptions options{.windows = 2};
  Model model = WindowAttentionModel(options);
  OptimizeExtended(model);
  REQUIRE(CountOps(model.graph(), "Attention") == 1);
  CHECK(CountOps(model.graph(), "Reshape") == 0);
  CHECK(CountOps(model.graph(), "Tile") == 1);
  const Node& tile = *model.graph().Producer(Fused(model).inputs()[5]);
  const Tensor* per_window = model.graph().GetInitializer(tile.inputs()[0]);
  REQUIRE(per_window != nullptr);
  CHECK(per_window->shape() == TensorShape({2, kHeads, kTokens, kTokens}));
  // B' = 2, 4 and 6 windows: one, two and three images.
  CheckFusedMatches(options, {2, 4, 6});
  CheckFusedMatches(options, {4}, OptimizationLevel::kAll);
}

TEST_CASE("fuse_packed_qkv_attention takes blocks without biases or with the scale on the scores",
          "[optimizer][bert]") {
  const WindowOptions no_bias{.qkv_bias = false, .relative_bias = false};
  Model model = WindowAttentionModel(no_bias);
  OptimizeExtended(model);
  REQUIRE(CountOps(model.graph(), "Attention") == 1);
  // A zero QKV bias stands in (onnxruntime's CPU Attention needs one), and no attention_bias.
  const Node& fused = Fused(model);
  REQUIRE(fused.inputs().size() == 3);
  const Tensor* zeros = model.graph().GetInitializer(fused.inputs()[2]);
  REQUIRE(zeros != nullptr);
  CHECK(zeros->shape() == TensorShape({3 * kHidden}));
  CHECK(std::all_of(zeros->Span<float>().begin(), zeros->Span<float>().end(),
                    [](float value) { return value == 0.0f; }));
  CheckFusedMatches(no_bias, {3});
  CheckFusedMatches({.scale_scores = true}, {3});
  CheckFusedMatches({.windows = 2, .scale_scores = true}, {4});
}

TEST_CASE("fuse_packed_qkv_attention takes the parts unbound by Split and Squeeze",
          "[optimizer][bert]") {
  const WindowOptions options{.relative_bias = false, .scale_scores = true, .unbind = true};
  Model model = WindowAttentionModel(options);
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "Attention") == 1);
  CHECK(model.graph().NodeCount() == 1);
  CheckFusedMatches(options, {1, 3});
}

TEST_CASE("fuse_packed_qkv_attention leaves blocks whose fusion would change the result",
          "[optimizer][bert]") {
  // A mask or bias that varies along the batch cannot become a per-window bias; queries and keys
  // taken from other parts than Attention's weights assign them are not its attention. (B' is 4
  // for the mask of 2 images of 2 windows, 2 otherwise.)
  for (const auto& [options, batch] :
       {std::pair{WindowOptions{.windows = 2, .mask_images = 2}, int64_t{4}},
        {WindowOptions{.relative_batch = 2}, 2},
        {WindowOptions{.parts = {1, 0, 2}}, 2},
        {WindowOptions{.parts = {0, 2, 1}}, 2}}) {
    Model model = WindowAttentionModel(options);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "Attention") == 0);
    // fuse_head_major_attention may still take the heads as they are, and must compute the same.
    const auto plain =
        RunOnCpu(WindowAttentionModel(options), OptimizationLevel::kDisable, Feeds(batch));
    const auto optimized =
        RunOnCpu(WindowAttentionModel(options), OptimizationLevel::kExtended, Feeds(batch));
    CheckClose(optimized.output, plain.output, 1e-5, 1e-4);
  }
}

}  // namespace ort::test
