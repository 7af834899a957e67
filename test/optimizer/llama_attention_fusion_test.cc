// The extended level's LLaMA-style fusions: rotary embeddings (x * cos + rotate_half(x) * sin with
// cos/sin gathered from constant tables at the cache's positions) into com.microsoft
// RotaryEmbedding, and grouped-query attention over repeated cached keys and values with an
// additive mask into com.microsoft MultiHeadAttention; checked against the unfused graph.
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "lib/onnx/model_loader.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr int64_t kBatch = 2, kSequence = 3, kPast = 2, kHeads = 2, kKvHeads = 1, kHeadSize = 4;
constexpr int64_t kHidden = kHeads * kHeadSize, kRows = 16;

struct LlamaOptions {
  bool cache = true;          // past keys/values concatenated before the new ones
  bool halves_repeat = true;  // the tables are cat(freqs, freqs) (else unrelated halves)
  bool repeat_kv = true;      // else the MatMuls broadcast the one key/value head over all
  bool position_ids = false;  // positions from a [B,S] input (else past..past+S-1), HF style
};

Tensor Floats(std::vector<int64_t> dims, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(static_cast<size_t>(TensorShape(dims).NumElements()));
  for (float& value : values) value = uniform(rng);
  return Tensor::FromVector<float>(TensorShape(std::move(dims)), std::span<const float>(values));
}

// A [1,1,M,h] table of f(position * inv_freq) as LLaMA caches it.
Tensor RotaryTable(bool cosine, bool halves_repeat) {
  std::vector<float> values;
  const int64_t half = kHeadSize / 2;
  for (int64_t row = 0; row < kRows; ++row) {
    for (int64_t i = 0; i < kHeadSize; ++i) {
      const int64_t j = i % half;
      const double inv_freq = 1.0 / std::pow(10000.0, 2.0 * j / kHeadSize);
      const double angle = row * inv_freq * (halves_repeat || i < half ? 1.0 : 1.5);
      values.push_back(static_cast<float>(cosine ? std::cos(angle) : std::sin(angle)));
    }
  }
  return Tensor::FromVector<float>({1, 1, kRows, kHeadSize}, std::span<const float>(values));
}

class Builder {
 public:
  explicit Builder(Graph& graph) : graph_(graph) {}

  std::string Const(std::vector<int64_t> values) {
    const std::string name = fmt::format("c{}", next_++);
    graph_.AddInitializer(name, Tensor::FromVector<int64_t>({static_cast<int64_t>(values.size())},
                                                            std::span(values)));
    return name;
  }
  std::string Scalar(int64_t value) {
    const std::string name = fmt::format("c{}", next_++);
    graph_.AddInitializer(name, Tensor::Scalar<int64_t>(value));
    return name;
  }
  std::string Op(const std::string& op, std::vector<std::string> inputs,
                 std::optional<Attribute> attribute = std::nullopt) {
    const std::string name = fmt::format("{}_{}", op, next_++);
    Node& node = graph_.AddNode({name, op, "", std::move(inputs), {name + "_out"}, {}});
    if (attribute) node.SetAttribute(std::move(*attribute));
    return name + "_out";
  }
  std::string Unsqueeze(const std::string& x, int64_t axis) {
    return Op("Unsqueeze", {x, Const({axis})});
  }
  // Dimension `axis` of `x` as a scalar.
  std::string Dim(const std::string& x, int64_t axis) {
    return Op("Gather", {Op("Shape", {x}), Scalar(axis)});
  }

 private:
  Graph& graph_;
  int next_ = 0;
};

// x * cos + rotate_half(x) * sin of the [B,N,S,h] heads x.
std::string Rotate(Builder& b, const std::string& x, const std::string& cos,
                   const std::string& sin) {
  const int64_t half = kHeadSize / 2;
  const std::string x1 =
      b.Op("Slice", {x, b.Const({0}), b.Const({half}), b.Const({-1}), b.Const({1})});
  const std::string x2 =
      b.Op("Slice", {x, b.Const({half}), b.Const({INT64_MAX}), b.Const({-1}), b.Const({1})});
  const std::string rotated = b.Op("Concat", {b.Op("Neg", {x2}), x1}, Attribute::Int("axis", -1));
  return b.Op("Add", {b.Op("Mul", {x, cos}), b.Op("Mul", {rotated, sin})});
}

// cos or sin rows at `positions` [1,S] or [B,S]: table[:, :, :total][0, 0][positions].unsqueeze(1),
// or with squeeze(1).squeeze(0) for [0, 0] (as HF's apply_rotary_pos_emb writes it).
std::string Gathered(Builder& b, const std::string& table, const std::string& total,
                     const std::string& positions, bool squeeze = false) {
  const std::string rows =
      b.Op("Slice", {table, b.Const({0}), b.Unsqueeze(total, 0), b.Const({2}), b.Const({1})});
  const std::string plane =
      squeeze ? b.Op("Squeeze", {b.Op("Squeeze", {rows, b.Const({1})}), b.Const({0})})
              : b.Op("Gather", {b.Op("Gather", {rows, b.Scalar(0)}), b.Scalar(0)});
  return b.Unsqueeze(b.Op("Gather", {plane, positions}), 1);
}

// HF's repeat_kv of [B,KV,T,h] heads: expand a new axis to the group size, reshape to [B,N,T,h].
std::string RepeatKv(Builder& b, const std::string& heads) {
  const std::string batch = b.Unsqueeze(b.Dim(heads, 0), 0);
  const std::string length = b.Unsqueeze(b.Dim(heads, 2), 0);
  const std::string expanded =
      b.Op("Expand",
           {b.Unsqueeze(heads, 2), b.Op("Concat",
                                        {batch, b.Const({kKvHeads}), b.Const({kHeads / kKvHeads}),
                                         length, b.Const({kHeadSize})},
                                        Attribute::Int("axis", 0))});
  return b.Op("Reshape",
              {expanded, b.Op("Concat", {batch, b.Const({kHeads}), length, b.Const({kHeadSize})},
                              Attribute::Int("axis", 0))});
}

// One LLaMA attention block over x [B,S,D] with grouped-query heads, rotary embeddings at the
// positions after the cache, and an additive mask [B,1,S,T] given as an input.
Model LlamaModel(const LlamaOptions& options = {}) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  Builder b(graph);
  const auto symbolic = [](std::vector<Dimension> dims) {
    return ValueType::Tensor(DataType::kFloat, SymbolicShape(std::move(dims)));
  };
  const Dimension batch = Dimension::Symbol("batch"), sequence = Dimension::Symbol("sequence");
  graph.SetValueType("x", symbolic({batch, sequence, Dimension::Known(kHidden)}));
  graph.SetValueType("mask", symbolic({batch, Dimension::Known(1), sequence,
                                       Dimension::Symbol("total_sequence")}));
  std::vector<std::string> inputs{"x", "mask"};
  if (options.cache) {
    for (const char* past : {"past_k", "past_v"}) {
      graph.SetValueType(past, symbolic({batch, Dimension::Known(kKvHeads),
                                         Dimension::Symbol("past"), Dimension::Known(kHeadSize)}));
      inputs.push_back(past);
    }
  }
  graph.AddInitializer("cos_cached", RotaryTable(true, options.halves_repeat));
  graph.AddInitializer("sin_cached", RotaryTable(false, options.halves_repeat));
  const std::string seq = b.Dim("x", 1);
  const std::string past = options.cache ? b.Dim("past_k", 2) : b.Scalar(0);
  const std::string total = b.Op("Add", {seq, past});
  std::string positions = "position_ids";
  if (options.position_ids) {
    graph.SetValueType("position_ids",
                       ValueType::Tensor(DataType::kInt64, SymbolicShape({batch, sequence})));
    inputs.push_back("position_ids");
  } else {
    positions = b.Unsqueeze(b.Op("Range", {past, total, b.Scalar(1)}), 0);
  }
  const std::string cos = Gathered(b, "cos_cached", total, positions, options.position_ids);
  const std::string sin = Gathered(b, "sin_cached", total, positions, options.position_ids);

  uint32_t seed = 1;
  std::map<std::string, std::string> heads;
  for (const auto& [name, count] : {std::pair{"q", kHeads}, {"k", kKvHeads}, {"v", kKvHeads}}) {
    const std::string weight = std::string("W") + name;
    graph.AddInitializer(weight, Floats({kHidden, count * kHeadSize}, seed++));
    const std::string split =
        b.Op("Reshape", {b.Op("MatMul", {"x", weight}), b.Const({0, 0, count, kHeadSize})});
    heads[name] = b.Op("Transpose", {split}, Attribute::Ints("perm", {0, 2, 1, 3}));
  }
  const std::string q = Rotate(b, heads["q"], cos, sin);
  std::string k = Rotate(b, heads["k"], cos, sin), v = heads["v"];
  std::vector<std::string> outputs{"y"};
  if (options.cache) {
    graph.AddNode({"k_cache", "Concat", "", {"past_k", k}, {"present_k"}, {}})
        .SetAttribute(Attribute::Int("axis", 2));
    graph.AddNode({"v_cache", "Concat", "", {"past_v", v}, {"present_v"}, {}})
        .SetAttribute(Attribute::Int("axis", 2));
    k = "present_k";
    v = "present_v";
    outputs.insert(outputs.end(), {"present_k", "present_v"});
  }
  const auto repeat = [&](const std::string& heads) {
    return options.repeat_kv ? RepeatKv(b, heads) : heads;
  };
  const std::string keys = b.Op("Transpose", {repeat(k)}, Attribute::Ints("perm", {0, 1, 3, 2}));
  graph.AddInitializer("divisor", Tensor::Scalar<float>(2.0f));
  const std::string scores = b.Op("Div", {b.Op("MatMul", {q, keys}), "divisor"});
  const std::string probs =
      b.Op("Softmax", {b.Op("Add", {scores, "mask"})}, Attribute::Int("axis", -1));
  const std::string context = b.Op("MatMul", {probs, repeat(v)});
  const std::string merged = b.Op("Transpose", {context}, Attribute::Ints("perm", {0, 2, 1, 3}));
  graph.AddNode({"merge", "Reshape", "", {merged, b.Const({0, 0, kHidden})}, {"y"}, {}});
  graph.set_inputs(inputs);
  graph.set_outputs(outputs);
  graph.ResolveOuterScope();
  InferModelTypes(model);
  return model;
}

// A causal mask behind `past` cached keys, with the first key of sample 1 padded.
Tensor Mask(int64_t past) {
  const int64_t total = past + kSequence;
  std::vector<float> values;
  for (int64_t b = 0; b < kBatch; ++b) {
    for (int64_t i = 0; i < kSequence; ++i) {
      for (int64_t j = 0; j < total; ++j) {
        const bool hidden = j > past + i || (b == 1 && j == 0);
        values.push_back(hidden ? std::numeric_limits<float>::lowest() : 0.0f);
      }
    }
  }
  return Tensor::FromVector<float>({kBatch, 1, kSequence, total}, std::span<const float>(values));
}

std::vector<NamedValue> Feeds(bool cache, int64_t past) {
  std::vector<NamedValue> feeds{{"x", Value(Floats({kBatch, kSequence, kHidden}, 11))},
                                {"mask", Value(Mask(cache ? past : 0))}};
  if (cache) {
    feeds.push_back({"past_k", Value(Floats({kBatch, kKvHeads, past, kHeadSize}, 12))});
    feeds.push_back({"past_v", Value(Floats({kBatch, kKvHeads, past, kHeadSize}, 13))});
  }
  return feeds;
}

// Every output of the model equals the unfused one's, run with output `first` as output 0.
void CheckOutputs(const LlamaOptions& options, const std::vector<NamedValue>& feeds,
                  size_t fused_attention) {
  const std::vector<std::string> outputs = LlamaModel(options).graph().outputs();
  for (const std::string& output : outputs) {
    const auto build = [&] {
      Model step = LlamaModel(options);
      std::vector<std::string> order = step.graph().outputs();
      std::rotate(order.begin(), std::find(order.begin(), order.end(), output), order.end());
      step.graph().set_outputs(order);
      return step;
    };
    const auto [plain, plain_ops] = RunOnCpu(build(), OptimizationLevel::kDisable, feeds);
    const auto [fused, fused_ops] = RunOnCpu(build(), OptimizationLevel::kExtended, feeds);
    CHECK(static_cast<size_t>(std::count(fused_ops.begin(), fused_ops.end(),
                                         "MultiHeadAttention")) == fused_attention);
    CheckClose(fused, plain, 1e-5, 1e-4);
  }
}

// A MultiHeadAttention over repeat_kv copies of key and value heads given as inputs ([B,KV,T,h];
// the value's heads `value_kv_heads`), with the present outputs when `present`.
Model RepeatedHeadsAttentionModel(bool present, int64_t value_kv_heads = kKvHeads) {
  Model model = MakeModel(17);
  model.opsets()[std::string(kMsDomain)] = 1;
  Graph& graph = model.graph();
  Builder b(graph);
  const auto heads_type = [](int64_t heads) {
    return ValueType::Tensor(
        DataType::kFloat, SymbolicShape({Dimension::Symbol("batch"), Dimension::Known(heads),
                                         Dimension::Symbol("total"), Dimension::Known(kHeadSize)}));
  };
  graph.SetValueType(
      "q", ValueType::Tensor(DataType::kFloat, SymbolicShape({Dimension::Symbol("batch"),
                                                              Dimension::Symbol("sequence"),
                                                              Dimension::Known(kHidden)})));
  graph.SetValueType("k", heads_type(kKvHeads));
  graph.SetValueType("v", heads_type(value_kv_heads));
  const std::string key = RepeatKv(b, "k");
  const std::string value = value_kv_heads == kKvHeads ? RepeatKv(b, "v") : "v";
  std::vector<std::string> outputs{"y"};
  if (present) outputs.insert(outputs.end(), {"present_key", "present_value"});
  Node& attention = graph.AddNode(
      {"attention", "MultiHeadAttention", std::string(kMsDomain), {"q", key, value}, outputs, {}});
  attention.SetAttribute(Attribute::Int("num_heads", kHeads));
  graph.set_inputs({"q", "k", "v"});
  graph.set_outputs(outputs);
  graph.ResolveOuterScope();
  InferModelTypes(model);
  return model;
}

// Rotary embeddings of [B,N,S,h] heads given as an input, at positions 0..S-1.
Model HeadsRotaryModel() {
  Model model = MakeModel(17);
  Graph& graph = model.graph();
  Builder b(graph);
  graph.SetValueType(
      "x", ValueType::Tensor(
               DataType::kFloat,
               SymbolicShape({Dimension::Symbol("batch"), Dimension::Known(kHeads),
                              Dimension::Symbol("sequence"), Dimension::Known(kHeadSize)})));
  graph.AddInitializer("cos_cached", RotaryTable(true, true));
  graph.AddInitializer("sin_cached", RotaryTable(false, true));
  const std::string length = b.Dim("x", 2);
  const std::string positions = b.Unsqueeze(b.Op("Range", {b.Scalar(0), length, b.Scalar(1)}), 0);
  const std::string cos = Gathered(b, "cos_cached", length, positions);
  const std::string sin = Gathered(b, "sin_cached", length, positions);
  graph.set_inputs({"x"});
  graph.set_outputs({Rotate(b, "x", cos, sin)});
  graph.ResolveOuterScope();
  InferModelTypes(model);
  return model;
}

}  // namespace

TEST_CASE("fuse_rotary_embedding rotates [B,N,S,h] heads in place", "[optimizer][bert][llama]") {
  Model model = HeadsRotaryModel();
  OptimizeExtended(model);
  REQUIRE(CountOps(model.graph(), "RotaryEmbedding") == 1);
  const Node& rotary = *model.graph().Producer(model.graph().outputs()[0]);
  CHECK(rotary.op_type() == "RotaryEmbedding");
  CHECK(rotary.inputs()[0] == "x");
  const std::vector<NamedValue> feeds{{"x", Value(Floats({kBatch, kHeads, 5, kHeadSize}, 21))}};
  const auto [plain, plain_ops] = RunOnCpu(HeadsRotaryModel(), OptimizationLevel::kDisable, feeds);
  const auto [fused, fused_ops] = RunOnCpu(HeadsRotaryModel(), OptimizationLevel::kExtended, feeds);
  CHECK(std::count(fused_ops.begin(), fused_ops.end(), "RotaryEmbedding") == 1);
  CheckClose(fused, plain, 1e-5, 1e-4);
}

TEST_CASE("LLaMA attention with a cache fuses into RotaryEmbedding and MultiHeadAttention",
          "[optimizer][bert][llama]") {
  Model model = LlamaModel();
  OptimizeExtended(model);
  const Graph& graph = model.graph();
  REQUIRE(CountOps(graph, "RotaryEmbedding") == 2);
  REQUIRE(CountOps(graph, "MultiHeadAttention") == 1);
  CHECK(CountOps(graph, "Softmax") == 0);
  CHECK(CountOps(graph, "Neg") == 0);
  const Node& attention = *graph.Producer("y");
  CHECK(attention.FindAttribute("num_heads")->i == kHeads);
  CHECK(attention.FindAttribute("scale") == nullptr);  // 1/2 = 1/sqrt(head size)
  CHECK(attention.inputs()[5] == "mask");
  // In a session, the grouped-query heads are read unrepeated (fuse_grouped_kv_heads).
  CHECK(attention.FindAttribute("kv_num_heads")->i == kKvHeads);
  CHECK(CountOps(graph, "Expand") == 0);
  for (const Node* node : graph.Nodes()) {
    if (node->op_type() != "RotaryEmbedding") continue;
    // Rotated as the [B,S,N*h] projection, at the positions after the cache.
    CHECK(graph.Producer(node->inputs()[0])->op_type() == "MatMul");
    const Tensor* cache = graph.GetConstantInitializer(node->inputs()[2], false);
    REQUIRE(cache != nullptr);
    CHECK(cache->shape() == TensorShape({kRows, kHeadSize / 2}));
  }
  CheckOutputs({}, Feeds(true, kPast), 1);
  CheckOutputs({}, Feeds(true, 0), 1);
}

TEST_CASE("A model optimized for saving keeps repeat_kv for onnxruntime",
          "[optimizer][bert][llama]") {
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kExtended;
  InferenceSession session(options);
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(std::make_unique<Model>(LlamaModel())).ok());
  REQUIRE(session.OptimizeForSaving().ok());
  const Graph& graph = session.model().graph();
  REQUIRE(CountOps(graph, "MultiHeadAttention") == 1);
  CHECK(graph.Producer("y")->FindAttribute("kv_num_heads") == nullptr);
  CHECK(CountOps(graph, "Expand") == 2);
}

TEST_CASE("LLaMA attention without a cache fuses", "[optimizer][bert][llama]") {
  const LlamaOptions options{.cache = false};
  Model model = LlamaModel(options);
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "RotaryEmbedding") == 2);
  CHECK(CountOps(model.graph(), "MultiHeadAttention") == 1);
  CheckOutputs(options, Feeds(false, 0), 1);
}

TEST_CASE("fuse_rotary_embedding leaves tables whose halves differ", "[optimizer][bert][llama]") {
  // RotaryEmbedding reads one [M, h/2] half of each table: another second half is not rotary.
  const LlamaOptions options{.halves_repeat = false};
  Model model = LlamaModel(options);
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "RotaryEmbedding") == 0);
  CHECK(CountOps(model.graph(), "Neg") == 2);
  CheckOutputs(options, Feeds(true, kPast), 0);
}

TEST_CASE("fuse_kv_heads_attention leaves keys that MatMul broadcasts over the heads",
          "[optimizer][bert][llama]") {
  // MultiHeadAttention needs num_heads key heads; one head broadcast by MatMul is not that.
  const LlamaOptions options{.repeat_kv = false};
  Model model = LlamaModel(options);
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "RotaryEmbedding") == 2);
  CHECK(CountOps(model.graph(), "MultiHeadAttention") == 0);
  CheckOutputs(options, Feeds(true, kPast), 0);
}

TEST_CASE("LLaMA attention with position_ids fuses", "[optimizer][bert][llama]") {
  const LlamaOptions options{.position_ids = true};
  Model model = LlamaModel(options);
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "RotaryEmbedding") == 2);
  CHECK(CountOps(model.graph(), "MultiHeadAttention") == 1);
  for (const Node* node : model.graph().Nodes()) {
    if (node->op_type() == "RotaryEmbedding") CHECK(node->inputs()[1] == "position_ids");
  }
  // Sample 1 is left-padded by one token: its positions start one lower.
  auto feeds = Feeds(true, kPast);
  feeds.push_back({"position_ids",
                   Value(Tensor::FromVector<int64_t>({kBatch, kSequence}, {2, 3, 4, 1, 2, 3}))});
  CheckOutputs(options, feeds, 1);
}

TEST_CASE("fuse_grouped_kv_heads reads the unrepeated heads, unless a present output needs them",
          "[optimizer][bert][llama]") {
  const std::vector<NamedValue> feeds{{"q", Value(Floats({kBatch, kSequence, kHidden}, 41))},
                                      {"k", Value(Floats({kBatch, kKvHeads, 5, kHeadSize}, 42))},
                                      {"v", Value(Floats({kBatch, kKvHeads, 5, kHeadSize}, 43))}};
  SECTION("repeated key and value") {
    Model model = RepeatedHeadsAttentionModel(false);
    OptimizeExtended(model);
    REQUIRE(OpTypes(model.graph()) == Ops{"MultiHeadAttention"});
    const Node& attention = *model.graph().Producer("y");
    CHECK(attention.inputs()[1] == "k");
    CHECK(attention.inputs()[2] == "v");
    CHECK(attention.FindAttribute("kv_num_heads")->i == kKvHeads);
    CheckSameOutputs([] { return RepeatedHeadsAttentionModel(false); }, feeds, 1);
  }
  SECTION("present outputs, which hold num_heads heads") {
    Model model = RepeatedHeadsAttentionModel(true);
    OptimizeExtended(model);
    CHECK(model.graph().Producer("y")->FindAttribute("kv_num_heads") == nullptr);
    CHECK(CountOps(model.graph(), "Expand") == 2);
  }
  SECTION("a value that is not repeated") {
    Model model = RepeatedHeadsAttentionModel(false, kHeads);
    OptimizeExtended(model);
    CHECK(model.graph().Producer("y")->FindAttribute("kv_num_heads") == nullptr);
  }
}

}  // namespace ort::test
