// The extended level's BERT fusions: a self-attention block into com.microsoft Attention and the
// embedding sum + LayerNormalization into EmbedLayerNormalization. Each is checked for the nodes
// left, for the cases that must stay unfused, and for outputs equal to the unfused model's.
#include <algorithm>
#include <limits>
#include <random>

#include "lib/onnx/model_loader.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr int64_t kBatch = 2, kSequence = 3, kHidden = 4, kHeads = 2;

Tensor RandomFloats(std::vector<int64_t> dims, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(static_cast<size_t>(TensorShape(dims).NumElements()));
  for (float& value : values) value = uniform(rng);
  return Tensor::FromVector<float>(TensorShape(std::move(dims)), std::span<const float>(values));
}

ValueType IntTensor(std::vector<int64_t> dims) {
  SymbolicShape shape;
  for (int64_t dim : dims) shape.push_back(Dimension::Known(dim));
  return ValueType::Tensor(DataType::kInt64, shape);
}

// How the block masks padded keys of m [B,S] (nonzero = attend).
enum class MaskForm {
  kNone,
  kAdditive,       // scores + (1 - float(m[:, None, None, :])) * -10000
  kWhereMasked,    // Where(Expand(Reshape(m == 0, [B,1,1,S]), Shape(scores)), -inf, scores)
  kWhereKept,      // Where(bool(m)[:, None, None, :], scores, float.min)
  kWhereInverted,  // Where(m == 0, scores, -inf): attends to the padding, (m == 0) the mask
};

struct AttentionOptions {
  bool query_also_output = false;  // the q projection's Add is a graph output too
  bool scores_read_twice = false;  // a second node reads the scaled scores
  bool weights_fed = false;        // Wq is a graph input, not a constant
  MaskForm mask = MaskForm::kAdditive;
  bool scale_on_query = false;  // q / sqrt(h) before MatMul(q, k) instead of scaling the scores
  bool with_bias = true;
  // Reshape targets read x's batch and sequence through Shape (x.view(x.size(0), x.size(1), ..)),
  // from `shape_source`'s shape; x's batch and sequence are symbols.
  bool shape_read_targets = false;
  std::string shape_source = "x";
  // One MatMul [+ Add] with [D, 3D] weights split into the parts in this order (GPT-2's c_attn);
  // empty for three projections.
  std::string packed_order = {};
  // Constant targets [-1, S, N, h] and [-1, S, N*h] with x [batch, S, D] (an export at a fixed
  // sequence length with a dynamic batch).
  bool fixed_sequence_targets = false;
};

// Concat(Unsqueeze(Shape(source)[0]), Unsqueeze(Shape(source)[1]), tail): a Reshape target
// that reads its first two elements from `source`'s shape.
std::string ShapeReadTarget(Graph& graph, const std::string& source, const std::string& prefix,
                            std::vector<int64_t> tail) {
  graph.AddNode({prefix + "_shape", "Shape", "", {source}, {prefix + "_dims"}, {}});
  std::vector<std::string> pieces;
  for (int64_t axis : {0, 1}) {
    const std::string index = fmt::format("{}_index{}", prefix, axis);
    const std::string piece = fmt::format("{}_dim{}", prefix, axis);
    graph.AddInitializer(index, Tensor::Scalar<int64_t>(axis));
    graph.AddNode(
        {piece + "_gather", "Gather", "", {prefix + "_dims", index}, {piece + "_0d"}, {}});
    graph.AddNode({piece + "_unsqueeze", "Unsqueeze", "", {piece + "_0d", "axis0"}, {piece}, {}});
    pieces.push_back(piece);
  }
  const std::string tail_name = prefix + "_tail";
  const auto tail_size = static_cast<int64_t>(tail.size());
  graph.AddInitializer(tail_name, Tensor::FromVector<int64_t>({tail_size}, tail));
  pieces.push_back(tail_name);
  graph.AddNode({prefix + "_concat", "Concat", "", pieces, {prefix + "_target"}, {}})
      .SetAttribute(Attribute::Int("axis", 0));
  return prefix + "_target";
}

// m [B,S] as the condition of a Where over [B,N,S,S] scores, in the form `form` asks for.
std::string WhereCondition(Graph& graph, MaskForm form, const std::string& scores) {
  if (form == MaskForm::kWhereKept) {
    graph.AddInitializer("axes12", Tensor::FromVector<int64_t>({2}, {1, 2}));
    graph.AddNode({"to_bool", "Cast", "", {"mask"}, {"kept"}, {}})
        .SetAttribute(Attribute::Int("to", static_cast<int64_t>(DataType::kBool)));
    graph.AddNode({"kept_4d", "Unsqueeze", "", {"kept", "axes12"}, {"condition"}, {}});
    return "condition";
  }
  graph.AddInitializer("zero", Tensor::Scalar<int64_t>(0));
  graph.AddNode({"is_padding", "Equal", "", {"mask", "zero"}, {"padding"}, {}});
  graph.AddNode({"mask_shape", "Shape", "", {"mask"}, {"mask_dims"}, {}});
  graph.AddInitializer("first", Tensor::FromVector<int64_t>({1}, {0}));
  graph.AddInitializer("last", Tensor::FromVector<int64_t>({1}, {1}));
  graph.AddInitializer("ones", Tensor::FromVector<int64_t>({2}, {1, 1}));
  graph.AddNode({"mask_batch", "Gather", "", {"mask_dims", "first"}, {"batch"}, {}});
  graph.AddNode({"mask_keys", "Gather", "", {"mask_dims", "last"}, {"keys"}, {}});
  graph.AddNode({"mask_target", "Concat", "", {"batch", "ones", "keys"}, {"mask_4d_shape"}, {}})
      .SetAttribute(Attribute::Int("axis", 0));
  graph.AddNode({"padding_4d", "Reshape", "", {"padding", "mask_4d_shape"}, {"padding_b11s"}, {}});
  graph.AddNode({"scores_shape", "Shape", "", {scores}, {"scores_dims"}, {}});
  graph.AddNode({"expand", "Expand", "", {"padding_b11s", "scores_dims"}, {"condition"}, {}});
  return "condition";
}

// x [2,3,4] through a 2-head self-attention block written the way BERT exporters write it.
Model AttentionModel(const AttentionOptions& options = {}) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  std::mt19937 rng(3);
  std::vector<std::string> inputs{"x"};
  if (options.fixed_sequence_targets) {
    graph.SetValueType(
        "x", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("batch"),
                                                               Dimension::Known(kSequence),
                                                               Dimension::Known(kHidden)}));
  } else if (options.shape_read_targets) {
    graph.SetValueType(
        "x", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("batch"),
                                                               Dimension::Symbol("sequence"),
                                                               Dimension::Known(kHidden)}));
  } else {
    graph.SetValueType("x", FloatTensor({kBatch, kSequence, kHidden}));
  }
  if (options.shape_source != "x" && options.shape_source != "mask") {
    inputs.push_back(options.shape_source);
    graph.SetValueType(options.shape_source,
                       ValueType::Tensor(DataType::kInt64, SymbolicShape{Dimension::Symbol("b"),
                                                                         Dimension::Symbol("s")}));
  }
  if (options.mask != MaskForm::kNone) {
    inputs.push_back("mask");
    // The mask has x's batch and sequence, symbolic where x's are.
    const ValueType& x_type = *graph.FindTypeInScope("x");
    graph.SetValueType(
        "mask",
        ValueType::Tensor(DataType::kInt64, SymbolicShape{(*x_type.shape)[0], (*x_type.shape)[1]}));
  }
  graph.AddInitializer("axis0", Tensor::FromVector<int64_t>({1}, {0}));
  const std::string heads_shape =
      options.shape_read_targets
          ? ShapeReadTarget(graph, options.shape_source, "heads", {kHeads, kHidden / kHeads})
          : "heads_shape";
  if (!options.packed_order.empty()) {
    graph.AddInitializer("Wqkv", RandomFloats({kHidden, 3 * kHidden}, rng));
    graph.AddNode({"qkv_matmul", "MatMul", "", {"x", "Wqkv"}, {"qkv_mm"}, {}});
    std::string packed = "qkv_mm";
    if (options.with_bias) {
      graph.AddInitializer("bqkv", RandomFloats({3 * kHidden}, rng));
      graph.AddNode({"qkv_add", "Add", "", {"bqkv", "qkv_mm"}, {"qkv"}, {}});
      packed = "qkv";
    }
    graph.AddInitializer("split_sizes",
                         Tensor::FromVector<int64_t>({3}, {kHidden, kHidden, kHidden}));
    std::vector<std::string> parts;
    for (char part : options.packed_order) parts.push_back(fmt::format("{}_part", part));
    graph.AddNode({"qkv_split", "Split", "", {packed, "split_sizes"}, parts, {}})
        .SetAttribute(Attribute::Int("axis", 2));
  }
  for (const char* name : {"q", "k", "v"}) {
    const std::string w = fmt::format("W{}", name), b = fmt::format("b{}", name);
    if (options.weights_fed && std::string(name) == "q") {
      inputs.push_back(w);
      graph.SetValueType(w, FloatTensor({kHidden, kHidden}));
    } else if (options.packed_order.empty()) {
      graph.AddInitializer(w, RandomFloats({kHidden, kHidden}, rng));
    }
    const std::string p = name;
    std::string projected = p + "_part";
    if (options.packed_order.empty()) {
      graph.AddNode({p + "_matmul", "MatMul", "", {"x", w}, {p + "_mm"}, {}});
      projected = p + "_mm";
    }
    if (options.packed_order.empty() && options.with_bias) {
      graph.AddInitializer(b, RandomFloats({kHidden}, rng));
      graph.AddNode({p + "_add", "Add", "", {b, p + "_mm"}, {p + "_add"}, {}});
      projected = p + "_add";
    }
    graph.AddNode({p + "_reshape", "Reshape", "", {projected, heads_shape}, {p + "_4d"}, {}});
    const std::vector<int64_t> perm =
        p == "k" ? std::vector<int64_t>{0, 2, 3, 1} : std::vector<int64_t>{0, 2, 1, 3};
    graph.AddNode({p + "_transpose", "Transpose", "", {p + "_4d"}, {p + "_t"}, {}})
        .SetAttribute(Attribute::Ints("perm", perm));
  }
  const int64_t leading = options.fixed_sequence_targets ? -1 : 0;
  const int64_t sequence = options.fixed_sequence_targets ? kSequence : 0;
  graph.AddInitializer("heads_shape",
                       Tensor::FromVector<int64_t>({4}, {leading, sequence, kHeads, 2}));
  graph.AddInitializer("out_shape", Tensor::FromVector<int64_t>({3}, {leading, sequence, kHidden}));
  graph.AddInitializer("divisor", Tensor::FromVector<float>({}, {1.4142135f}));
  std::string query = "q_t";
  if (options.scale_on_query) {
    graph.AddNode({"q_scale", "Div", "", {"q_t", "divisor"}, {"q_scaled"}, {}});
    query = "q_scaled";
    graph.AddNode({"qk", "MatMul", "", {query, "k_t"}, {"scores"}, {}});
  } else {
    graph.AddNode({"qk", "MatMul", "", {query, "k_t"}, {"qk"}, {}});
    graph.AddNode({"div", "Div", "", {"qk", "divisor"}, {"scores"}, {}});
  }
  std::string scores = "scores";
  if (options.mask == MaskForm::kAdditive) {
    graph.AddInitializer("axis1", Tensor::FromVector<int64_t>({1}, {1}));
    graph.AddInitializer("axis2", Tensor::FromVector<int64_t>({1}, {2}));
    graph.AddInitializer("one", Tensor::FromVector<float>({}, {1.0f}));
    graph.AddInitializer("filter", Tensor::FromVector<float>({}, {-10000.0f}));
    graph.AddNode({"unsqueeze1", "Unsqueeze", "", {"mask", "axis1"}, {"m3"}, {}});
    graph.AddNode({"unsqueeze2", "Unsqueeze", "", {"m3", "axis2"}, {"m4"}, {}});
    graph.AddNode({"cast", "Cast", "", {"m4"}, {"mf"}, {}}).SetAttribute(Attribute::Int("to", 1));
    graph.AddNode({"sub", "Sub", "", {"one", "mf"}, {"inverted"}, {}});
    graph.AddNode({"mul", "Mul", "", {"inverted", "filter"}, {"additive"}, {}});
    graph.AddNode({"mask_add", "Add", "", {"scores", "additive"}, {"masked"}, {}});
    scores = "masked";
  } else if (options.mask != MaskForm::kNone) {
    const bool kept = options.mask == MaskForm::kWhereKept;
    const float fill =
        kept ? std::numeric_limits<float>::lowest() : -std::numeric_limits<float>::infinity();
    graph.AddInitializer("fill", Tensor::Scalar<float>(fill));
    const std::string condition = WhereCondition(graph, options.mask, "scores");
    const bool fill_first = options.mask == MaskForm::kWhereMasked;
    graph.AddNode({"where",
                   "Where",
                   "",
                   {condition, fill_first ? "fill" : "scores", fill_first ? "scores" : "fill"},
                   {"masked"},
                   {}});
    scores = "masked";
  }
  graph.AddNode({"softmax", "Softmax", "", {scores}, {"probs"}, {}})
      .SetAttribute(Attribute::Int("axis", -1));
  graph.AddNode({"pv", "MatMul", "", {"probs", "v_t"}, {"context"}, {}});
  graph.AddNode({"context_transpose", "Transpose", "", {"context"}, {"context_t"}, {}})
      .SetAttribute(Attribute::Ints("perm", {0, 2, 1, 3}));
  const std::string out_shape = options.shape_read_targets
                                    ? ShapeReadTarget(graph, "context_t", "out", {kHidden})
                                    : "out_shape";
  graph.AddNode({"context_reshape", "Reshape", "", {"context_t", out_shape}, {"y"}, {}});
  std::vector<std::string> outputs{"y"};
  if (options.query_also_output) outputs.push_back(options.with_bias ? "q_add" : "q_mm");
  if (options.scores_read_twice) {
    graph.AddNode({"extra", "Neg", "", {"scores"}, {"negated"}, {}});
    outputs.push_back("negated");
  }
  graph.set_inputs(inputs);
  graph.set_outputs(outputs);
  graph.ResolveOuterScope();
  InferModelTypes(model);
  return model;
}

}  // namespace

TEST_CASE("fuse_attention replaces a self-attention block by Attention", "[optimizer][bert]") {
  Model model = AttentionModel();
  OptimizeExtended(model);
  const Graph& graph = model.graph();
  CHECK(OpTypes(graph) == Ops{"Cast", "Attention"});
  const Node& attention = *graph.Producer("y");
  CHECK(attention.domain() == "com.microsoft");
  CHECK(attention.FindAttribute("num_heads")->i == kHeads);
  CHECK(attention.FindAttribute("mask_filter_value")->f == -10000.0f);
  // 1/sqrt(2) is the default scale for head size 2, so none is written.
  CHECK(attention.FindAttribute("scale") == nullptr);
  const Tensor* weights = graph.GetInitializer(attention.inputs()[1]);
  REQUIRE(weights != nullptr);
  CHECK(weights->shape() == TensorShape({kHidden, 3 * kHidden}));
  CHECK(graph.GetInitializer(attention.inputs()[2])->shape() == TensorShape({3 * kHidden}));
  CHECK(graph.GetInitializer("Wq") == nullptr);
  CHECK(graph.opsets().at("com.microsoft") == 1);

  Model unmasked = AttentionModel({.mask = MaskForm::kNone});
  OptimizeExtended(unmasked);
  CHECK(OpTypes(unmasked.graph()) == Ops{"Attention"});
}

TEST_CASE("fuse_attention takes the mask, scale, bias and shape forms exporters write",
          "[optimizer][bert]") {
  std::mt19937 rng(13);
  const Tensor x = RandomFloats({kBatch, kSequence, kHidden}, rng);
  const Tensor mask = Tensor::FromVector<int64_t>({kBatch, kSequence}, {1, 0, 1, 1, 1, 0});
  const std::vector<std::pair<std::string, AttentionOptions>> forms{
      {"Where(m == 0, -inf) through Reshape and Expand", {.mask = MaskForm::kWhereMasked}},
      {"Where(bool(m), scores, float.min)", {.mask = MaskForm::kWhereKept}},
      {"Where(m == 0, scores, -inf), a mask of its own", {.mask = MaskForm::kWhereInverted}},
      {"q scaled before MatMul(q, k)", {.scale_on_query = true}},
      {"projections without bias", {.mask = MaskForm::kNone, .with_bias = false}},
      {"targets read from x's shape", {.shape_read_targets = true}},
      {"targets [-1, S, ..] fixed at x's static sequence", {.fixed_sequence_targets = true}},
      {"packed [Wq|Wk|Wv] split after the MatMul", {.packed_order = "qkv"}},
      {"packed [Wk|Wv|Wq] without bias",
       {.mask = MaskForm::kNone, .with_bias = false, .packed_order = "kvq"}},
      {"all at once",
       {.mask = MaskForm::kWhereMasked,
        .scale_on_query = true,
        .with_bias = false,
        .shape_read_targets = true}},
  };
  for (const auto& [name, options] : forms) {
    SECTION(name) {
      Model model = AttentionModel(options);
      OptimizeExtended(model);
      REQUIRE(CountOps(model.graph(), "Attention") == 1);
      CHECK(CountOps(model.graph(), "Softmax") == 0);
      CHECK(CountOps(model.graph(), "Reshape") == 0);
      const Node& attention = *model.graph().Producer("y");
      // A zero bias stands in for none: ONNX Runtime's CPU Attention crashes without one.
      REQUIRE(attention.HasInput(2));
      if (!options.with_bias) {
        const Tensor* bias = model.graph().GetInitializer(attention.inputs()[2]);
        REQUIRE(bias != nullptr);
        const float* values = bias->Data<float>();
        CHECK(std::all_of(values, values + bias->NumElements(), [](float v) { return v == 0; }));
      }
      if (options.mask == MaskForm::kWhereMasked) {
        CHECK(attention.FindAttribute("mask_filter_value")->f ==
              -std::numeric_limits<float>::infinity());
      }
      std::vector<NamedValue> feeds{{"x", Value(x)}};
      if (options.mask != MaskForm::kNone) feeds.push_back({"mask", Value(mask)});
      const auto [plain, plain_ops] =
          RunOnCpu(AttentionModel(options), OptimizationLevel::kDisable, feeds);
      const auto [fused, fused_ops] =
          RunOnCpu(AttentionModel(options), OptimizationLevel::kExtended, feeds);
      CHECK(std::count(fused_ops.begin(), fused_ops.end(), "Attention") == 1);
      CheckClose(fused, plain, 1e-5, 1e-4);
    }
  }
}

TEST_CASE("fuse_attention fuses blocks whose Reshapes take the sizes of the mask",
          "[optimizer][bert]") {
  const AttentionOptions options{.shape_read_targets = true, .shape_source = "mask"};
  Model model = AttentionModel(options);
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "Attention") == 1);
  CHECK(CountOps(model.graph(), "Reshape") == 0);

  // Other batch and sequence sizes than the other cases'.
  std::mt19937 rng(13);
  const Tensor x = RandomFloats({3, 5, kHidden}, rng);
  std::vector<int64_t> mask(15, 1);
  mask[4] = mask[13] = mask[14] = 0;
  std::vector<NamedValue> feeds{{"x", Value(x)},
                                {"mask", Value(Tensor::FromVector<int64_t>({3, 5}, mask))}};
  const auto [plain, plain_ops] =
      RunOnCpu(AttentionModel(options), OptimizationLevel::kDisable, feeds);
  const auto [fused, fused_ops] =
      RunOnCpu(AttentionModel(options), OptimizationLevel::kExtended, feeds);
  CHECK(std::count(fused_ops.begin(), fused_ops.end(), "Attention") == 1);
  CheckClose(fused, plain, 1e-5, 1e-4);
}

TEST_CASE("fuse_attention leaves masks and shapes it cannot prove", "[optimizer][bert]") {
  // Batch and sequence read from another input, whose dimensions nothing ties to x's.
  Model other = AttentionModel({.shape_read_targets = true, .shape_source = "ids"});
  OptimizeExtended(other);
  CHECK(CountOps(other.graph(), "Attention") == 0);
}

TEST_CASE("fuse_attention leaves blocks with shared intermediates or fed weights",
          "[optimizer][bert]") {
  // The projections cannot go into Attention's one GEMM; MultiHeadAttention takes the block
  // over the projected values instead.
  std::mt19937 rng(17);
  const Tensor x = RandomFloats({kBatch, kSequence, kHidden}, rng);
  const Tensor mask = Tensor::FromVector<int64_t>({kBatch, kSequence}, {1, 1, 0, 1, 0, 1});
  const Tensor wq = RandomFloats({kHidden, kHidden}, rng);
  for (const AttentionOptions& options :
       {AttentionOptions{.query_also_output = true}, AttentionOptions{.weights_fed = true}}) {
    Model model = AttentionModel(options);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "Attention") == 0);
    CHECK(CountOps(model.graph(), "MultiHeadAttention") == 1);
    CHECK(CountOps(model.graph(), "Softmax") == 0);
    std::vector<NamedValue> feeds{{"x", Value(x)}, {"mask", Value(mask)}};
    if (options.weights_fed) feeds.push_back({"Wq", Value(wq)});
    const auto [plain, plain_ops] =
        RunOnCpu(AttentionModel(options), OptimizationLevel::kDisable, feeds);
    const auto [fused, fused_ops] =
        RunOnCpu(AttentionModel(options), OptimizationLevel::kExtended, feeds);
    CHECK(std::count(fused_ops.begin(), fused_ops.end(), "MultiHeadAttention") == 1);
    CheckClose(fused, plain, 1e-5, 1e-4);
  }

  Model read_twice = AttentionModel({.scores_read_twice = true});
  OptimizeExtended(read_twice);
  CHECK(CountOps(read_twice.graph(), "Attention") == 0);
  CHECK(CountOps(read_twice.graph(), "MultiHeadAttention") == 0);

  Model disabled = AttentionModel();
  OptimizeExtended(disabled, {"fuse_attention"});
  CHECK(CountOps(disabled.graph(), "Attention") == 0);
}

TEST_CASE("A fused attention block gives the unfused block's outputs", "[optimizer][bert]") {
  std::mt19937 rng(11);
  const Tensor x = RandomFloats({kBatch, kSequence, kHidden}, rng);
  std::vector<NamedValue> feeds{
      {"x", Value(x)},
      {"mask", Value(Tensor::FromVector<int64_t>({kBatch, kSequence}, {1, 0, 1, 1, 1, 0}))}};
  const auto [plain, plain_ops] = RunOnCpu(AttentionModel(), OptimizationLevel::kDisable, feeds);
  const auto [fused, fused_ops] = RunOnCpu(AttentionModel(), OptimizationLevel::kExtended, feeds);
  CHECK(std::count(fused_ops.begin(), fused_ops.end(), "Attention") == 1);
  CHECK(std::count(plain_ops.begin(), plain_ops.end(), "Attention") == 0);
  CheckClose(fused, plain, 1e-5, 1e-4);
}

namespace {

// LayerNormalization(word[ids] + position[Slice(arange, 0, S)] + segment[segments]) at opset 17.
// With static ids shapes, constant folding turns the position rows into a constant first.
Model EmbeddingModel(bool shifted_positions = false, bool static_shapes = false) {
  Model model = MakeModel(17);
  Graph& graph = model.graph();
  std::mt19937 rng(5);
  const ValueType ids_type =
      static_shapes
          ? IntTensor({kBatch, kSequence})
          : ValueType::Tensor(DataType::kInt64, SymbolicShape{Dimension::Symbol("batch"),
                                                              Dimension::Symbol("sequence")});
  graph.SetValueType("ids", ids_type);
  graph.SetValueType("segments", ids_type);
  graph.AddInitializer("word", RandomFloats({7, kHidden}, rng));
  graph.AddInitializer("position", RandomFloats({5, kHidden}, rng));
  graph.AddInitializer("segment", RandomFloats({2, kHidden}, rng));
  graph.AddInitializer("gamma", RandomFloats({kHidden}, rng));
  graph.AddInitializer("beta", RandomFloats({kHidden}, rng));
  const int64_t first = shifted_positions ? 1 : 0;
  graph.AddInitializer("position_ids",
                       Tensor::FromVector<int64_t>({1, 5}, {first, first + 1, first + 2, 3, 4}));
  graph.AddInitializer("zero", Tensor::FromVector<int64_t>({1}, {0}));
  graph.AddInitializer("one", Tensor::FromVector<int64_t>({}, {1}));
  graph.AddInitializer("axis", Tensor::FromVector<int64_t>({1}, {1}));
  graph.AddInitializer("unsqueeze_axes", Tensor::FromVector<int64_t>({1}, {0}));
  graph.AddNode({"shape", "Shape", "", {"ids"}, {"ids_shape"}, {}});
  graph.AddNode({"length", "Gather", "", {"ids_shape", "one"}, {"length"}, {}});
  graph.AddNode({"end", "Unsqueeze", "", {"length", "unsqueeze_axes"}, {"end"}, {}});
  graph.AddNode({"slice", "Slice", "", {"position_ids", "zero", "end", "axis"}, {"positions"}, {}});
  graph.AddNode({"word_gather", "Gather", "", {"word", "ids"}, {"w"}, {}});
  graph.AddNode({"position_gather", "Gather", "", {"position", "positions"}, {"p"}, {}});
  graph.AddNode({"add", "Add", "", {"w", "p"}, {"wp"}, {}});
  graph.AddNode({"segment_gather", "Gather", "", {"segment", "segments"}, {"s"}, {}});
  graph.AddNode({"add_segment", "Add", "", {"wp", "s"}, {"sum"}, {}});
  graph.AddNode({"norm", "LayerNormalization", "", {"sum", "gamma", "beta"}, {"y"}, {}})
      .SetAttribute(Attribute::Float("epsilon", 1e-6f));
  graph.set_inputs({"ids", "segments"});
  graph.set_outputs({"y"});
  graph.ResolveOuterScope();
  return model;
}

}  // namespace

TEST_CASE("fuse_embed_layer_norm fuses the embedding sum and its LayerNormalization",
          "[optimizer][bert]") {
  Model model = EmbeddingModel();
  OptimizeExtended(model);
  const Graph& graph = model.graph();
  CHECK(CountOps(graph, "EmbedLayerNormalization") == 1);
  CHECK(CountOps(graph, "Cast") == 2);
  CHECK(graph.NodeCount() == 3);  // the position Slice chain went too
  const Node& fused = *graph.Producer("y");
  CHECK(fused.FindAttribute("epsilon")->f == 1e-6f);
  CHECK(fused.inputs()[2] == "word");
  CHECK(fused.inputs()[3] == "position");
  CHECK(fused.inputs()[4] == "segment");

  // Positions that do not start at 0 are not the kernel's implicit ones.
  Model shifted = EmbeddingModel(/*shifted_positions=*/true);
  OptimizeExtended(shifted);
  CHECK(CountOps(shifted.graph(), "EmbedLayerNormalization") == 0);

  std::vector<NamedValue> feeds{
      {"ids", Value(Tensor::FromVector<int64_t>({kBatch, kSequence}, {6, 0, 3, 2, 2, 5}))},
      {"segments", Value(Tensor::FromVector<int64_t>({kBatch, kSequence}, {0, 0, 1, 1, 0, 1}))}};
  for (const bool static_shapes : {false, true}) {
    INFO("static shapes: " << static_shapes);
    const auto [plain, plain_ops] =
        RunOnCpu(EmbeddingModel(false, static_shapes), OptimizationLevel::kDisable, feeds);
    const auto [fused_out, fused_ops] =
        RunOnCpu(EmbeddingModel(false, static_shapes), OptimizationLevel::kExtended, feeds);
    CHECK(std::count(fused_ops.begin(), fused_ops.end(), "EmbedLayerNormalization") == 1);
    CHECK(fused_ops.size() == 3);
    CheckClose(fused_out, plain, 1e-5, 1e-4);
  }
}

}  // namespace ort::test
