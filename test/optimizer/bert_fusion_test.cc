// The extended level's BERT fusions: a self-attention block into com.microsoft Attention and the
// embedding sum + LayerNormalization into EmbedLayerNormalization. Each is checked for the nodes
// left, for the cases that must stay unfused, and for outputs equal to the unfused model's.
#include <algorithm>
#include <random>

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

struct AttentionOptions {
  bool query_also_output = false;  // the q projection's Add is a graph output too
  bool scores_read_twice = false;  // a second node reads the scaled scores
  bool weights_fed = false;        // Wq is a graph input, not a constant
  bool with_mask = true;
  // When set, x and mask have symbolic batch and sequence sizes and the Reshapes take them from
  // this input's shape (x.view(src.size(0), src.size(1), heads, -1)), as torch exports write.
  std::string sizes_from = {};
};

// Concat(Unsqueeze(Gather(Shape(source), 0)), Unsqueeze(Gather(Shape(source), 1)), tail).
std::string AddComputedShape(Graph& graph, const std::string& source,
                             const std::vector<int64_t>& tail, const std::string& name) {
  if (graph.Producer(source + "_shape") == nullptr) {
    graph.AddNode({source + "_shape", "Shape", "", {source}, {source + "_shape"}, {}});
    graph.AddInitializer("axes0", Tensor::FromVector<int64_t>({1}, {0}));
    for (int64_t axis : {0, 1}) {
      const std::string tag = fmt::format("{}_{}", source, axis);
      graph.AddInitializer("index_" + tag, Tensor::Scalar<int64_t>(axis));
      graph.AddNode(
          {"gather_" + tag, "Gather", "", {source + "_shape", "index_" + tag}, {"dim_" + tag}, {}});
      graph.AddNode(
          {"unsqueeze_" + tag, "Unsqueeze", "", {"dim_" + tag, "axes0"}, {"piece_" + tag}, {}});
    }
  }
  graph.AddInitializer(name + "_tail",
                       Tensor::FromVector<int64_t>({static_cast<int64_t>(tail.size())}, tail));
  graph
      .AddNode({name,
                "Concat",
                "",
                {"piece_" + source + "_0", "piece_" + source + "_1", name + "_tail"},
                {name},
                {}})
      .SetAttribute(Attribute::Int("axis", 0));
  return name;
}

// x [2,3,4] through a 2-head self-attention block written the way BERT exporters write it.
Model AttentionModel(const AttentionOptions& options = {}) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  std::mt19937 rng(3);
  std::vector<std::string> inputs{"x"};
  const bool dynamic = !options.sizes_from.empty();
  graph.SetValueType(
      "x", dynamic ? ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("batch"),
                                                                       Dimension::Symbol("seq"),
                                                                       Dimension::Known(kHidden)})
                   : FloatTensor({kBatch, kSequence, kHidden}));
  if (options.with_mask) {
    inputs.push_back("mask");
    graph.SetValueType("mask", dynamic ? ValueType::Tensor(DataType::kInt64,
                                                           SymbolicShape{Dimension::Symbol("batch"),
                                                                         Dimension::Symbol("seq")})
                                       : IntTensor({kBatch, kSequence}));
  }
  for (const char* name : {"q", "k", "v"}) {
    const std::string w = fmt::format("W{}", name), b = fmt::format("b{}", name);
    if (options.weights_fed && std::string(name) == "q") {
      inputs.push_back(w);
      graph.SetValueType(w, FloatTensor({kHidden, kHidden}));
    } else {
      graph.AddInitializer(w, RandomFloats({kHidden, kHidden}, rng));
    }
    graph.AddInitializer(b, RandomFloats({kHidden}, rng));
    const std::string p = name;
    graph.AddNode({p + "_matmul", "MatMul", "", {"x", w}, {p + "_mm"}, {}});
    graph.AddNode({p + "_add", "Add", "", {b, p + "_mm"}, {p + "_add"}, {}});
    graph.AddNode({p + "_reshape", "Reshape", "", {p + "_add", "heads_shape"}, {p + "_4d"}, {}});
    const std::vector<int64_t> perm =
        p == "k" ? std::vector<int64_t>{0, 2, 3, 1} : std::vector<int64_t>{0, 2, 1, 3};
    graph.AddNode({p + "_transpose", "Transpose", "", {p + "_4d"}, {p + "_t"}, {}})
        .SetAttribute(Attribute::Ints("perm", perm));
  }
  if (dynamic) {
    AddComputedShape(graph, options.sizes_from, {kHeads, -1}, "heads_shape");
    AddComputedShape(graph, options.sizes_from, {kHidden}, "out_shape");
  } else {
    graph.AddInitializer("heads_shape", Tensor::FromVector<int64_t>({4}, {0, 0, kHeads, 2}));
    graph.AddInitializer("out_shape", Tensor::FromVector<int64_t>({3}, {0, 0, kHidden}));
  }
  graph.AddInitializer("divisor", Tensor::FromVector<float>({}, {1.4142135f}));
  graph.AddNode({"qk", "MatMul", "", {"q_t", "k_t"}, {"qk"}, {}});
  graph.AddNode({"div", "Div", "", {"qk", "divisor"}, {"scores"}, {}});
  std::string scores = "scores";
  if (options.with_mask) {
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
  }
  graph.AddNode({"softmax", "Softmax", "", {scores}, {"probs"}, {}})
      .SetAttribute(Attribute::Int("axis", -1));
  graph.AddNode({"pv", "MatMul", "", {"probs", "v_t"}, {"context"}, {}});
  graph.AddNode({"context_transpose", "Transpose", "", {"context"}, {"context_t"}, {}})
      .SetAttribute(Attribute::Ints("perm", {0, 2, 1, 3}));
  graph.AddNode({"context_reshape", "Reshape", "", {"context_t", "out_shape"}, {"y"}, {}});
  std::vector<std::string> outputs{"y"};
  if (options.query_also_output) outputs.push_back("q_add");
  if (options.scores_read_twice) {
    graph.AddNode({"extra", "Neg", "", {"scores"}, {"negated"}, {}});
    outputs.push_back("negated");
  }
  graph.set_inputs(inputs);
  graph.set_outputs(outputs);
  graph.ResolveOuterScope();
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

  Model unmasked = AttentionModel({.with_mask = false});
  OptimizeExtended(unmasked);
  CHECK(OpTypes(unmasked.graph()) == Ops{"Attention"});
}

TEST_CASE("fuse_attention fuses blocks whose Reshapes take the sizes of an input",
          "[optimizer][bert]") {
  for (const char* source : {"x", "mask"}) {
    INFO("sizes from " << source);
    Model model = AttentionModel({.sizes_from = source});
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "Attention") == 1);
    CHECK(CountOps(model.graph(), "Reshape") == 0);
  }
  // Without the mask input the sizes must come from x itself.
  Model unmasked = AttentionModel({.with_mask = false, .sizes_from = "x"});
  OptimizeExtended(unmasked);
  CHECK(OpTypes(unmasked.graph()) == Ops{"Attention"});

  // Other batch and sequence sizes than the static model's, with the sizes from the mask.
  std::mt19937 rng(13);
  const Tensor x = RandomFloats({3, 5, kHidden}, rng);
  std::vector<int64_t> mask(15, 1);
  mask[4] = mask[13] = mask[14] = 0;
  std::vector<NamedValue> feeds{{"x", Value(x)},
                                {"mask", Value(Tensor::FromVector<int64_t>({3, 5}, mask))}};
  const auto [plain, plain_ops] =
      RunOnCpu(AttentionModel({.sizes_from = "mask"}), OptimizationLevel::kDisable, feeds);
  const auto [fused, fused_ops] =
      RunOnCpu(AttentionModel({.sizes_from = "mask"}), OptimizationLevel::kExtended, feeds);
  CHECK(std::count(fused_ops.begin(), fused_ops.end(), "Attention") == 1);
  CheckClose(fused, plain, 1e-5, 1e-4);
}

TEST_CASE("fuse_attention leaves blocks with shared intermediates or fed weights",
          "[optimizer][bert]") {
  Model shared = AttentionModel({.query_also_output = true});
  OptimizeExtended(shared);
  CHECK(CountOps(shared.graph(), "Attention") == 0);
  CHECK(CountOps(shared.graph(), "Softmax") == 1);

  Model read_twice = AttentionModel({.scores_read_twice = true});
  OptimizeExtended(read_twice);
  CHECK(CountOps(read_twice.graph(), "Attention") == 0);

  Model fed = AttentionModel({.weights_fed = true});
  OptimizeExtended(fed);
  CHECK(CountOps(fed.graph(), "Attention") == 0);

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
