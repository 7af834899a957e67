// The extended level's decoder attention fusion: GPT-2's attention with a key/value cache and a
// causal mask sliced from a lower-triangular buffer into com.microsoft MultiHeadAttention; and
// the causal look-alikes that must stay unfused.
#include <algorithm>
#include <random>

#include "lib/onnx/model_loader.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr int64_t kBatch = 2, kSequence = 3, kPast = 2, kHidden = 4, kHeads = 2, kBuffer = 8;

enum class Buffer { kLowerTriangular, kUpperTriangular };

struct DecoderOptions {
  Buffer buffer = Buffer::kLowerTriangular;
  bool query_start_from_keys = true;  // the query rows start at T - S (else at 0)
  // A second Reshape [-1, D] reads the merged heads too (GPT-2's Conv1D flatten merged into a
  // copy of the head merge), as output y_flat.
  bool flattened_copy = false;
};

Tensor Floats(std::vector<int64_t> dims, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(static_cast<size_t>(TensorShape(dims).NumElements()));
  for (float& value : values) value = uniform(rng);
  return Tensor::FromVector<float>(TensorShape(std::move(dims)), std::span<const float>(values));
}

// Scalar dimension `axis` of `tensor` as a 1-element int64 value, through Shape and Gather.
std::string Dim(Graph& graph, const std::string& tensor, int64_t axis, const std::string& name) {
  graph.AddInitializer(name + "_axis", Tensor::FromVector<int64_t>({1}, {axis}));
  graph.AddNode({name + "_shape", "Shape", "", {tensor}, {name + "_dims"}, {}});
  graph.AddNode({name + "_gather", "Gather", "", {name + "_dims", name + "_axis"}, {name}, {}});
  return name;
}

// One GPT-2 attention step over x [B,S,D] with past keys and values [B,N,P,h]: present keys and
// values are outputs, the causal mask is bias[.., T - S : T, : T] of a constant [1,1,M,M] buffer.
Model DecoderModel(const DecoderOptions& options = {}) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  const auto symbolic = [](std::vector<Dimension> dims) {
    return ValueType::Tensor(DataType::kFloat, SymbolicShape(std::move(dims)));
  };
  graph.SetValueType("x", symbolic({Dimension::Symbol("batch"), Dimension::Symbol("sequence"),
                                    Dimension::Known(kHidden)}));
  for (const char* past : {"past_k", "past_v"}) {
    graph.SetValueType(past, symbolic({Dimension::Symbol("batch"), Dimension::Known(kHeads),
                                       Dimension::Symbol("past"), Dimension::Known(2)}));
  }
  graph.AddInitializer("heads_shape", Tensor::FromVector<int64_t>({4}, {0, 0, kHeads, 2}));
  uint32_t seed = 1;
  for (const char* name : {"q", "k", "v"}) {
    const std::string p = name;
    graph.AddInitializer("W" + p, Floats({kHidden, kHidden}, seed++));
    graph.AddInitializer("b" + p, Floats({kHidden}, seed++));
    graph.AddNode({p + "_matmul", "MatMul", "", {"x", "W" + p}, {p + "_mm"}, {}});
    graph.AddNode({p + "_add", "Add", "", {p + "_mm", "b" + p}, {p + "_proj"}, {}});
    graph.AddNode({p + "_reshape", "Reshape", "", {p + "_proj", "heads_shape"}, {p + "_4d"}, {}});
    graph.AddNode({p + "_transpose", "Transpose", "", {p + "_4d"}, {p + "_heads"}, {}})
        .SetAttribute(Attribute::Ints("perm", {0, 2, 1, 3}));
  }
  for (const char* name : {"k", "v"}) {
    const std::string p = name;
    graph.AddNode({p + "_cache", "Concat", "", {"past_" + p, p + "_heads"}, {"present_" + p}, {}})
        .SetAttribute(Attribute::Int("axis", -2));
  }
  graph.AddNode({"k_transpose", "Transpose", "", {"present_k"}, {"k_t"}, {}})
      .SetAttribute(Attribute::Ints("perm", {0, 1, 3, 2}));
  graph.AddNode({"qk", "MatMul", "", {"q_heads", "k_t"}, {"qk"}, {}});
  graph.AddInitializer("divisor", Tensor::Scalar<float>(1.4142135f));
  graph.AddNode({"scale", "Div", "", {"qk", "divisor"}, {"scores"}, {}});

  std::vector<uint8_t> bits(kBuffer * kBuffer);
  for (int64_t r = 0; r < kBuffer; ++r) {
    for (int64_t c = 0; c < kBuffer; ++c) {
      const bool lower = c <= r;
      bits[static_cast<size_t>(r * kBuffer + c)] =
          options.buffer == Buffer::kLowerTriangular ? lower : (c >= r);
    }
  }
  graph.AddInitializer("bias",
                       Tensor::FromVector<uint8_t>({1, 1, kBuffer, kBuffer}, std::span(bits)));
  const std::string keys = Dim(graph, "present_k", 2, "key_length");
  const std::string queries = Dim(graph, "q_heads", 2, "query_length");
  std::string start = "zero";
  graph.AddInitializer("zero", Tensor::FromVector<int64_t>({1}, {0}));
  if (options.query_start_from_keys) {
    graph.AddNode({"start", "Sub", "", {keys, queries}, {"query_start"}, {}});
    start = "query_start";
  }
  graph.AddInitializer("axis2", Tensor::FromVector<int64_t>({1}, {2}));
  graph.AddInitializer("axis3", Tensor::FromVector<int64_t>({1}, {3}));
  graph.AddNode({"rows", "Slice", "", {"bias", start, keys, "axis2"}, {"bias_rows"}, {}});
  graph.AddNode({"columns", "Slice", "", {"bias_rows", "zero", keys, "axis3"}, {"causal_u8"}, {}});
  graph.AddNode({"to_bool", "Cast", "", {"causal_u8"}, {"causal"}, {}})
      .SetAttribute(Attribute::Int("to", static_cast<int64_t>(DataType::kBool)));
  graph.AddInitializer("lowest", Tensor::Scalar<float>(std::numeric_limits<float>::lowest()));
  graph.AddNode({"where", "Where", "", {"causal", "scores", "lowest"}, {"masked"}, {}});
  graph.AddNode({"softmax", "Softmax", "", {"masked"}, {"probs"}, {}})
      .SetAttribute(Attribute::Int("axis", -1));
  graph.AddNode({"pv", "MatMul", "", {"probs", "present_v"}, {"context"}, {}});
  graph.AddNode({"merge", "Transpose", "", {"context"}, {"context_t"}, {}})
      .SetAttribute(Attribute::Ints("perm", {0, 2, 1, 3}));
  graph.AddInitializer("out_shape", Tensor::FromVector<int64_t>({3}, {0, 0, kHidden}));
  graph.AddNode({"out", "Reshape", "", {"context_t", "out_shape"}, {"y"}, {}});
  std::vector<std::string> outputs{"y", "present_k", "present_v"};
  if (options.flattened_copy) {
    graph.AddInitializer("flat_shape", Tensor::FromVector<int64_t>({2}, {-1, kHidden}));
    graph.AddNode({"flat", "Reshape", "", {"context_t", "flat_shape"}, {"y_flat"}, {}});
    outputs.push_back("y_flat");
  }
  graph.set_inputs({"x", "past_k", "past_v"});
  graph.set_outputs(outputs);
  graph.ResolveOuterScope();
  InferModelTypes(model);
  return model;
}

std::vector<NamedValue> DecoderFeeds() {
  return {{"x", Value(Floats({kBatch, kSequence, kHidden}, 11))},
          {"past_k", Value(Floats({kBatch, kHeads, kPast, 2}, 12))},
          {"past_v", Value(Floats({kBatch, kHeads, kPast, 2}, 13))}};
}

}  // namespace

TEST_CASE("fuse_multi_head_attention takes a cached causal decoder step", "[optimizer][bert]") {
  Model model = DecoderModel();
  OptimizeExtended(model);
  REQUIRE(CountOps(model.graph(), "MultiHeadAttention") == 1);
  CHECK(CountOps(model.graph(), "Softmax") == 0);
  CHECK(CountOps(model.graph(), "Where") == 0);
  const Node& fused = *model.graph().Producer("y");
  CHECK(fused.domain() == "com.microsoft");
  CHECK(fused.outputs() == std::vector<std::string>{"y", "present_k", "present_v"});
  CHECK(fused.inputs()[6] == "past_k");
  CHECK(fused.inputs()[7] == "past_v");
  CHECK(fused.FindAttribute("unidirectional")->i == 1);
  CHECK(fused.FindAttribute("num_heads")->i == kHeads);

  // Every output, the present keys and values included, equals the unfused step's.
  const auto feeds = DecoderFeeds();
  for (const char* output : {"y", "present_k", "present_v"}) {
    const auto build = [output] {
      Model step = DecoderModel();
      std::vector<std::string> outputs = step.graph().outputs();
      std::rotate(outputs.begin(), std::find(outputs.begin(), outputs.end(), output),
                  outputs.end());
      step.graph().set_outputs(outputs);
      return step;
    };
    const auto [plain, plain_ops] = RunOnCpu(build(), OptimizationLevel::kDisable, feeds);
    const auto [fused_out, fused_ops] = RunOnCpu(build(), OptimizationLevel::kExtended, feeds);
    CHECK(std::count(fused_ops.begin(), fused_ops.end(), "MultiHeadAttention") == 1);
    CheckClose(fused_out, plain, 1e-5, 1e-4);
  }
}

TEST_CASE("fuse_multi_head_attention rewires Reshapes that share the merged heads",
          "[optimizer][bert]") {
  const DecoderOptions options{.flattened_copy = true};
  Model model = DecoderModel(options);
  OptimizeExtended(model);
  REQUIRE(CountOps(model.graph(), "MultiHeadAttention") == 1);
  CHECK(CountOps(model.graph(), "Transpose") == 0);
  const auto build = [&options] {
    Model step = DecoderModel(options);
    step.graph().set_outputs({"y_flat", "y", "present_k", "present_v"});
    return step;
  };
  const auto feeds = DecoderFeeds();
  const auto [plain, plain_ops] = RunOnCpu(build(), OptimizationLevel::kDisable, feeds);
  const auto [fused, fused_ops] = RunOnCpu(build(), OptimizationLevel::kExtended, feeds);
  CHECK(std::count(fused_ops.begin(), fused_ops.end(), "MultiHeadAttention") == 1);
  CheckClose(fused, plain, 1e-5, 1e-4);
}

TEST_CASE("fuse_multi_head_attention leaves masks that are not causal", "[optimizer][bert]") {
  for (const DecoderOptions& options : {DecoderOptions{.buffer = Buffer::kUpperTriangular},
                                        DecoderOptions{.query_start_from_keys = false}}) {
    Model model = DecoderModel(options);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "MultiHeadAttention") == 0);
    CHECK(CountOps(model.graph(), "Softmax") == 1);
  }
}

}  // namespace ort::test
