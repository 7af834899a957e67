// fuse_head_major_attention on queries, keys and values that arrive as [B,N,S,h] heads (MViT's
// pooled ones, here model inputs): with the merge to [B,S,N*h] after it or without (the heads
// read on, as MViT v2's residual pooling does), with a scale on q or on the FusedMatMul scores,
// and with an additive mask. Each fused model must give the unfused model's outputs; blocks
// whose shapes do not prove the heads stay unfused.
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr int64_t kHeads = 2, kHeadSize = 4;

enum class Tail { kMerge, kHeads };

struct HeadMajorOptions {
  Tail tail = Tail::kMerge;
  int64_t heads = kHeads;
  bool mask = false;
  // Keys with a head count of their own ("kv_heads"), which the shapes cannot tie to q's.
  bool unrelated_heads = false;
};

Dimension Heads(const HeadMajorOptions& options) {
  return options.unrelated_heads ? Dimension::Symbol("kv_heads") : Dimension::Known(options.heads);
}

// q [batch, N, queries, h], k and v [batch, N, keys, h]; y = merge(MatMul(Softmax(MatMul(q * 0.25,
// Transpose(k)) [+ mask]), v)) or, Tail::kHeads, the heads plus q.
Model HeadMajorModel(const HeadMajorOptions& options) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  const auto heads = [](const char* length, Dimension count) {
    return ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{Dimension::Symbol("batch"), count,
                                           Dimension::Symbol(length), Dimension::Known(kHeadSize)});
  };
  graph.SetValueType("q", heads("queries", Dimension::Known(options.heads)));
  graph.SetValueType("k", heads("keys", Heads(options)));
  graph.SetValueType("v", heads("keys", Heads(options)));
  std::vector<std::string> inputs{"q", "k", "v"};
  if (options.mask) {
    graph.SetValueType(
        "mask",
        ValueType::Tensor(DataType::kFloat,
                          SymbolicShape{Dimension::Known(1), Dimension::Known(options.heads),
                                        Dimension::Symbol("queries"), Dimension::Symbol("keys")}));
    inputs.push_back("mask");
  }
  graph.set_inputs(inputs);
  graph.AddInitializer("quarter", Tensor::Scalar<float>(0.25f));
  graph.AddNode({"scale", "Mul", "", {"q", "quarter"}, {"scaled"}, {}});
  graph.AddNode({"kt", "Transpose", "", {"k"}, {"kt"}, {}});
  graph.GetNode(graph.Producer("kt")->index())->SetAttribute(Attribute::Ints("perm", {0, 1, 3, 2}));
  graph.AddNode({"qk", "MatMul", "", {"scaled", "kt"}, {"scores"}, {}});
  std::string scores = "scores";
  if (options.mask) {
    graph.AddNode({"masked", "Add", "", {"scores", "mask"}, {"masked"}, {}});
    scores = "masked";
  }
  graph.AddNode({"softmax", "Softmax", "", {scores}, {"probs"}, {}});
  graph.AddNode({"pv", "MatMul", "", {"probs", "v"}, {"context"}, {}});
  if (options.tail == Tail::kMerge) {
    graph.AddNode({"merge", "Transpose", "", {"context"}, {"merged"}, {}});
    graph.GetNode(graph.Producer("merged")->index())
        ->SetAttribute(Attribute::Ints("perm", {0, 2, 1, 3}));
    graph.AddNode(
        {"flat", "Reshape", "", {"merged", Ints(graph, "target", {0, 0, -1})}, {"y"}, {}});
  } else {
    graph.AddNode({"residual", "Add", "", {"context", "q"}, {"y"}, {}});
  }
  graph.set_outputs({"y"});
  graph.ResolveOuterScope();
  return model;
}

std::vector<NamedValue> Feeds(int64_t batch, int64_t queries, int64_t keys, bool mask,
                              int64_t heads) {
  std::vector<NamedValue> feeds{{"q", Value(RandomTensor({batch, heads, queries, kHeadSize}, 1))},
                                {"k", Value(RandomTensor({batch, heads, keys, kHeadSize}, 2))},
                                {"v", Value(RandomTensor({batch, heads, keys, kHeadSize}, 3))}};
  if (mask) feeds.push_back({"mask", Value(RandomTensor({1, heads, queries, keys}, 4))});
  return feeds;
}

void CheckFused(const HeadMajorOptions& options, size_t fused) {
  const auto build = [options] { return HeadMajorModel(options); };
  for (const auto& [batch, queries, keys] :
       {std::tuple<int64_t, int64_t, int64_t>{2, 5, 3}, {1, 1, 4}, {3, 2, 2}}) {
    const auto feeds = Feeds(batch, queries, keys, options.mask, options.heads);
    const auto plain = RunOnCpu(build(), OptimizationLevel::kDisable, feeds);
    const auto optimized = RunOnCpu(build(), OptimizationLevel::kExtended, feeds);
    CHECK(std::count(optimized.executed.begin(), optimized.executed.end(), "MultiHeadAttention") ==
          static_cast<ptrdiff_t>(fused));
    CheckClose(optimized.output, plain.output, 1e-5, 1e-4);
  }
}

}  // namespace

TEST_CASE("fuse_head_major_attention takes heads however they were made", "[optimizer][bert]") {
  for (const auto& [tail, mask, heads] : {std::tuple{Tail::kMerge, false, kHeads},
                                          {Tail::kMerge, true, kHeads},
                                          {Tail::kHeads, false, kHeads},
                                          {Tail::kHeads, true, kHeads},
                                          {Tail::kMerge, false, 1},
                                          {Tail::kHeads, true, 1}}) {
    CAPTURE(static_cast<int>(tail), mask, heads);
    HeadMajorOptions options;
    options.tail = tail;
    options.mask = mask;
    options.heads = heads;
    Model model = HeadMajorModel(options);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "Softmax") == 0);
    REQUIRE(CountOps(model.graph(), "MultiHeadAttention") == 1);
    const Node* attention = nullptr;
    for (const Node* node : model.graph().Nodes()) {
      if (node->op_type() == "MultiHeadAttention") attention = node;
    }
    CHECK(attention->FindAttribute("num_heads")->i == heads);
    // 0.25, not the default 1/sqrt(4).
    REQUIRE(attention->FindAttribute("scale") != nullptr);
    CHECK(attention->FindAttribute("scale")->f == 0.25f);
    CHECK(attention->inputs().size() == (mask ? 6u : 3u));
    // The merge is the fused node's output; otherwise the heads come back for the residual.
    // One head is reshaped alone.
    const size_t transposes = heads == 1 ? 0u : (tail == Tail::kMerge ? 1u : 2u);
    CHECK(CountOps(model.graph(), "Transpose") == transposes);
    CheckFused(options, 1);
  }
}

TEST_CASE("fuse_head_major_attention leaves heads the shapes do not prove", "[optimizer][bert]") {
  HeadMajorOptions options;
  options.unrelated_heads = true;
  CheckFused(options, 0);
}

}  // namespace ort::test
