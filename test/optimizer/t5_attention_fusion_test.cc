// The extended level's fusion of T5's attention into com.microsoft MultiHeadAttention with
// attention_bias: unscaled scores plus a relative position bias computed in-graph (Range, Gather
// of an embedding) with the padding or causal mask folded in, and cross-attention whose zero bias
// is sized from the scores themselves (zeros_like(scores[:1]) + mask). Dynamic batch and
// sequence lengths; outputs are compared with the unfused graph's.
#include <algorithm>
#include <limits>

#include "lib/onnx/model_loader.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr int64_t kHidden = 8, kHeads = 2, kHeadSize = 4, kBuckets = 4;

enum class Form {
  kEncoder,     // self-attention, position bias + key padding mask [B,1,1,T]
  kDecoder,     // self-attention, position bias + causal mask [1,1,S,T]
  kCross,       // cross-attention, zeros_like(scores[:1]) + key padding mask of the encoder
  kCrossSized,  // cross-attention, zeros((1, N, S, L)) sized from x and the encoder (HF's T5)
  kRawMask,     // self-attention plus a [B,1,1,T] float input: not [.., S, T], stays unfused
};

class T5Builder {
 public:
  explicit T5Builder(Form form) : form_(form), model_(MakeModel(14)), graph_(model_.graph()) {}

  Model Build() {
    const bool cross = form_ == Form::kCross || form_ == Form::kCrossSized;
    SetInput("x", DataType::kFloat, {"batch", "sequence", ""});
    std::vector<std::string> inputs{"x"};
    if (cross) {
      SetInput("encoder", DataType::kFloat, {"batch", "encoder_sequence", ""});
      SetInput("encoder_mask", DataType::kInt64, {"batch", "encoder_sequence"});
      inputs.insert(inputs.end(), {"encoder", "encoder_mask"});
    } else if (form_ == Form::kEncoder) {
      SetInput("mask", DataType::kInt64, {"batch", "sequence"});
      inputs.push_back("mask");
    } else if (form_ == Form::kRawMask) {
      graph_.SetValueType(
          "raw_bias",
          ValueType::Tensor(DataType::kFloat,
                            SymbolicShape{Dimension::Symbol("batch"), Dimension::Known(1),
                                          Dimension::Known(1), Dimension::Symbol("sequence")}));
      inputs.push_back("raw_bias");
    }
    const std::string kv = cross ? "encoder" : "x";
    Initializer("heads_shape", Tensor::FromVector<int64_t>({4}, {0, -1, kHeads, kHeadSize}));
    const std::string q = Heads(Project("x", "q", 1), "q", {0, 2, 1, 3});
    const std::string k_4d = Reshape(Project(kv, "k", 2), "k");
    const std::string v = Heads(Project(kv, "v", 3), "v", {0, 2, 1, 3});
    const std::string k_t = Node("Transpose", {k_4d}, "k_t", Attribute::Ints("perm", {0, 2, 3, 1}));
    const std::string scores = Node("MatMul", {q, k_t}, "scores");

    std::string bias;
    if (form_ == Form::kCross) {
      Initializer("zero", Tensor::FromVector<int64_t>({1}, {0}));
      Initializer("one", Tensor::FromVector<int64_t>({1}, {1}));
      const std::string first =
          Node("Slice", {scores, "zero", "one", "zero", "one"}, "first_scores");
      const std::string zeros =
          Node("ConstantOfShape", {Node("Shape", {first}, "zeros_shape")}, "zeros");
      bias = Node("Add", {zeros, PaddingTerm("encoder_mask")}, "bias");
    } else if (form_ == Form::kCrossSized) {
      Initializer("one_heads", Tensor::FromVector<int64_t>({2}, {1, kHeads}));
      Initializer("axis0", Tensor::FromVector<int64_t>({1}, {0}));
      const std::string queries =
          Node("Unsqueeze", {Dim("x", 1, "query_length"), "axis0"}, "query_length_1d");
      const std::string keys =
          Node("Unsqueeze", {Dim("encoder", 1, "key_length"), "axis0"}, "key_length_1d");
      const std::string shape =
          Node("Concat", {"one_heads", queries, keys}, "zeros_shape", Attribute::Int("axis", 0));
      bias = Node("Add", {Node("ConstantOfShape", {shape}, "zeros"), PaddingTerm("encoder_mask")},
                  "bias");
    } else if (form_ == Form::kRawMask) {
      bias = "raw_bias";
    } else {
      // The key length read from the key heads, as T5 writes k.shape[2].
      const std::string k_heads =
          Node("Transpose", {k_4d}, "k_heads", Attribute::Ints("perm", {0, 2, 1, 3}));
      const std::string positions =
          PositionBias(Dim("x", 1, "query_length"), Dim(k_heads, 2, "key_length"));
      bias = Node("Add", {positions, form_ == Form::kEncoder ? PaddingTerm("mask") : CausalTerm()},
                  "bias");
    }
    const std::string probs = Node("Softmax", {Node("Add", {scores, bias}, "biased")}, "probs",
                                   Attribute::Int("axis", -1));
    const std::string context = Node("MatMul", {probs, v}, "context");
    const std::string merged =
        Node("Transpose", {context}, "merged", Attribute::Ints("perm", {0, 2, 1, 3}));
    Initializer("out_shape", Tensor::FromVector<int64_t>({3}, {0, -1, kHidden}));
    Node("Reshape", {merged, "out_shape"}, "y");
    graph_.set_inputs(inputs);
    graph_.set_outputs({"y"});
    graph_.ResolveOuterScope();
    InferModelTypes(model_);
    return std::move(model_);
  }

 private:
  void SetInput(const std::string& name, DataType type, const std::vector<std::string>& dims) {
    SymbolicShape shape;
    for (const auto& dim : dims) {
      shape.push_back(dim.empty() ? Dimension::Known(kHidden) : Dimension::Symbol(dim));
    }
    graph_.SetValueType(name, ValueType::Tensor(type, shape));
  }

  void Initializer(const std::string& name, Tensor tensor) {
    if (graph_.GetInitializer(name) == nullptr) graph_.AddInitializer(name, std::move(tensor));
  }

  std::string Node(const std::string& op, std::vector<std::string> inputs, const std::string& name,
                   std::optional<Attribute> attribute = std::nullopt) {
    NodeSpec spec;
    spec.name = name;
    spec.op_type = op;
    spec.inputs = std::move(inputs);
    spec.outputs = {name};
    if (attribute) spec.attributes.push_back(std::move(*attribute));
    graph_.AddNode(std::move(spec));
    return name;
  }

  std::string Project(const std::string& input, const std::string& name, uint32_t seed) {
    Initializer("W" + name, RandomTensor({kHidden, kHidden}, seed, -1.0f, 1.0f));
    return Node("MatMul", {input, "W" + name}, name + "_proj");
  }

  std::string Reshape(const std::string& projected, const std::string& name) {
    return Node("Reshape", {projected, "heads_shape"}, name + "_4d");
  }

  std::string Heads(const std::string& projected, const std::string& name,
                    std::vector<int64_t> perm) {
    return Node("Transpose", {Reshape(projected, name)}, name + "_heads",
                Attribute::Ints("perm", std::move(perm)));
  }

  // Dimension `axis` of `tensor` as an int64 scalar (Shape, Gather).
  std::string Dim(const std::string& tensor, int64_t axis, const std::string& name) {
    Initializer(name + "_axis", Tensor::Scalar<int64_t>(axis));
    return Node("Gather", {Node("Shape", {tensor}, name + "_shape"), name + "_axis"}, name);
  }

  // (1 - float(m[:, None, None, :])) * lowest: [B,1,1,T].
  std::string PaddingTerm(const std::string& mask) {
    Initializer("axes12", Tensor::FromVector<int64_t>({2}, {1, 2}));
    const std::string expanded = Node("Unsqueeze", {mask, "axes12"}, mask + "_4d");
    return Hidden(Node("Cast", {expanded}, mask + "_float",
                       Attribute::Int("to", static_cast<int64_t>(DataType::kFloat))),
                  mask);
  }

  std::string Hidden(const std::string& keep, const std::string& name) {
    Initializer("one_float", Tensor::Scalar<float>(1.0f));
    Initializer("lowest", Tensor::Scalar<float>(std::numeric_limits<float>::lowest()));
    return Node("Mul", {Node("Sub", {"one_float", keep}, name + "_hidden"), "lowest"},
                name + "_term");
  }

  // Range(0, S) and Range(0, T) as [S,1] and [1,T].
  void Ranges() {
    Initializer("start", Tensor::Scalar<int64_t>(0));
    Initializer("step", Tensor::Scalar<int64_t>(1));
    Initializer("axis0", Tensor::FromVector<int64_t>({1}, {0}));
    Initializer("axis1", Tensor::FromVector<int64_t>({1}, {1}));
  }

  // emb[min(|j - i|, buckets - 1)] as [1,N,S,T] (T5's bucketing, shortened).
  std::string PositionBias(const std::string& queries, const std::string& keys) {
    Ranges();
    query_positions_ =
        Node("Unsqueeze", {Node("Range", {"start", queries, "step"}, "query_range"), "axis1"},
             "query_positions");
    key_positions_ =
        Node("Unsqueeze", {Node("Range", {"start", keys, "step"}, "key_range"), "axis0"},
             "key_positions");
    const std::string distance =
        Node("Abs", {Node("Sub", {key_positions_, query_positions_}, "relative")}, "distance");
    Initializer("last_bucket", Tensor::Scalar<int64_t>(kBuckets - 1));
    const std::string bucket = Node("Min", {distance, "last_bucket"}, "bucket");
    Initializer("embedding", RandomTensor({kBuckets, kHeads}, 7, -1.0f, 1.0f));
    const std::string values = Node("Gather", {"embedding", bucket}, "bucket_values");
    const std::string heads_first =
        Node("Transpose", {values}, "bucket_heads", Attribute::Ints("perm", {2, 0, 1}));
    return Node("Unsqueeze", {heads_first, "axis0"}, "positions");
  }

  // (1 - float(key j <= query i)) * lowest: [1,1,S,T].
  std::string CausalTerm() {
    const std::string seen = Node("LessOrEqual", {key_positions_, query_positions_}, "seen");
    const std::string term =
        Hidden(Node("Cast", {seen}, "seen_float",
                    Attribute::Int("to", static_cast<int64_t>(DataType::kFloat))),
               "causal");
    Initializer("axes01", Tensor::FromVector<int64_t>({2}, {0, 1}));
    return Node("Unsqueeze", {term, "axes01"}, "causal_4d");
  }

  Form form_;
  Model model_;
  Graph& graph_;
  std::string query_positions_, key_positions_;
};

Model T5Model(Form form) { return T5Builder(form).Build(); }

Value Ints(std::vector<int64_t> dims, std::vector<int64_t> values) {
  return Value(
      Tensor::FromVector<int64_t>(TensorShape(std::move(dims)), std::span<const int64_t>(values)));
}

std::vector<NamedValue> Feeds(Form form) {
  constexpr int64_t kBatch = 2, kSequence = 3, kEncoderSequence = 5;
  std::vector<NamedValue> feeds{{"x", Value(RandomTensor({kBatch, kSequence, kHidden}, 11))}};
  if (form == Form::kCross || form == Form::kCrossSized) {
    feeds.push_back({"encoder", Value(RandomTensor({kBatch, kEncoderSequence, kHidden}, 12))});
    feeds.push_back(
        {"encoder_mask", Ints({kBatch, kEncoderSequence}, {1, 1, 1, 0, 0, 1, 1, 1, 1, 1})});
  } else if (form == Form::kEncoder) {
    feeds.push_back({"mask", Ints({kBatch, kSequence}, {1, 1, 1, 1, 0, 1})});
  } else if (form == Form::kRawMask) {
    feeds.push_back({"raw_bias", Value(RandomTensor({kBatch, 1, 1, kSequence}, 13))});
  }
  return feeds;
}

const Node& FusedNode(const Graph& graph) {
  const Node* fused = graph.Producer("y");
  REQUIRE(fused != nullptr);
  REQUIRE(fused->op_type() == "MultiHeadAttention");
  return *fused;
}

void CheckSameAsUnfused(Form form) {
  const auto feeds = Feeds(form);
  const auto [plain, plain_ops] = RunOnCpu(T5Model(form), OptimizationLevel::kDisable, feeds);
  const auto [fused, fused_ops] = RunOnCpu(T5Model(form), OptimizationLevel::kExtended, feeds);
  CHECK(std::count(fused_ops.begin(), fused_ops.end(), "MultiHeadAttention") == 1);
  CheckClose(fused, plain, 1e-5, 1e-4);
}

}  // namespace

TEST_CASE("fuse_multi_head_attention takes T5 self-attention with a position bias and padding",
          "[optimizer][bert][t5]") {
  Model model = T5Model(Form::kEncoder);
  OptimizeExtended(model);
  const Graph& graph = model.graph();
  CHECK(CountOps(graph, "Softmax") == 0);
  const Node& fused = FusedNode(graph);
  CHECK(fused.inputs() == std::vector<std::string>{"q_proj", "k_proj", "v_proj", "", "", "bias"});
  CHECK(fused.FindAttribute("num_heads")->i == kHeads);
  // T5 does not scale its scores.
  CHECK(fused.FindAttribute("scale")->f == 1.0f);
  CHECK(fused.FindAttribute("unidirectional") == nullptr);
  // The key length came from the key heads; it is read from the key projection now, and the
  // heads' transposes are gone (the position bias's own Transpose stays).
  CHECK(CountOps(graph, "Transpose") == 1);
  CHECK(graph.Producer("k_heads") == nullptr);
  CheckSameAsUnfused(Form::kEncoder);
}

TEST_CASE("fuse_multi_head_attention takes T5 decoder self-attention with a causal bias",
          "[optimizer][bert][t5]") {
  Model model = T5Model(Form::kDecoder);
  OptimizeExtended(model);
  const Node& fused = FusedNode(model.graph());
  CHECK(fused.inputs()[5] == "bias");
  // The causal mask is in the bias: no unidirectional masking on top of it.
  CHECK(fused.FindAttribute("unidirectional") == nullptr);
  CheckSameAsUnfused(Form::kDecoder);
}

TEST_CASE("fuse_multi_head_attention takes T5 cross-attention sized by its own scores",
          "[optimizer][bert][t5]") {
  Model model = T5Model(Form::kCross);
  OptimizeExtended(model);
  const Graph& graph = model.graph();
  const Node& fused = FusedNode(graph);
  CHECK(fused.inputs()[0] == "q_proj");
  CHECK(fused.inputs()[1] == "k_proj");
  CHECK(fused.inputs()[2] == "v_proj");
  CHECK(fused.inputs()[5] == "bias");
  // The zero bias's shape [min(B,1), N, S, L] is rebuilt from the projections: the scores
  // MatMul and their Slice are gone, only the three projections remain.
  CHECK(CountOps(graph, "MatMul") == 3);
  CHECK(CountOps(graph, "Slice") == 0);
  CHECK(CountOps(graph, "ConstantOfShape") == 1);
  // A Slice [0, 1) of the batch is min(batch, 1), also for an empty batch.
  CHECK(CountOps(graph, "Min") == 1);
  CheckSameAsUnfused(Form::kCross);
}

TEST_CASE("fuse_multi_head_attention leaves attention whose scores are read for their data",
          "[optimizer][bert][t5]") {
  Model model = T5Model(Form::kCross);
  model.graph().set_outputs({"y", "first_scores"});
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "MultiHeadAttention") == 0);
  CHECK(CountOps(model.graph(), "Softmax") == 1);
}

TEST_CASE("fuse_multi_head_attention leaves a bias that broadcasts over the queries",
          "[optimizer][bert][t5]") {
  // MultiHeadAttention's attention_bias must have the query length as its third dimension.
  Model model = T5Model(Form::kRawMask);
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "MultiHeadAttention") == 0);
  CHECK(CountOps(model.graph(), "Softmax") == 1);
}

TEST_CASE("fuse_multi_head_attention takes cross-attention with a bias sized from its inputs",
          "[optimizer][bert][t5]") {
  Model model = T5Model(Form::kCrossSized);
  OptimizeExtended(model);
  CHECK(FusedNode(model.graph()).inputs()[5] == "bias");
  CHECK(CountOps(model.graph(), "Softmax") == 0);
  CheckSameAsUnfused(Form::kCrossSized);
}

}  // namespace ort::test
