// reshape_fusion: the Shape -> Gather -> Unsqueeze -> Concat chains exporters feed Reshape with
// become constant shapes (0 for the input's own dimension, known values, one -1), and the
// chains it must leave; a fused model gives the same outputs as the unfused one.
#include <fmt/format.h>

#include <functional>
#include <memory>
#include <optional>
#include <tuple>

#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

ValueType SymbolicFloat(SymbolicShape shape) {
  return ValueType::Tensor(DataType::kFloat, std::move(shape));
}

// Adds piece = Unsqueeze(Gather(Shape(source), index), [0]), the chain for source.size(index).
std::string AddDimPiece(Graph& graph, const std::string& source, int64_t index) {
  const std::string tag = fmt::format("{}_{}", source, index);
  if (graph.Producer(source + "_shape") == nullptr) {
    graph.AddNode({source + "_shape", "Shape", "", {source}, {source + "_shape"}, {}});
  }
  graph.AddInitializer("index_" + tag, Tensor::Scalar<int64_t>(index));
  Node& gather = graph.AddNode(
      {"gather_" + tag, "Gather", "", {source + "_shape", "index_" + tag}, {"dim_" + tag}, {}});
  gather.SetAttribute(Attribute::Int("axis", 0));
  if (graph.GetInitializer("axes0") == nullptr) {
    graph.AddInitializer("axes0", Tensor::FromVector<int64_t>({1}, {0}));
  }
  graph.AddNode(
      {"unsqueeze_" + tag, "Unsqueeze", "", {"dim_" + tag, "axes0"}, {"piece_" + tag}, {}});
  return "piece_" + tag;
}

std::string AddConstantPiece(Graph& graph, int64_t value) {
  const std::string name = fmt::format("c{}", value);
  graph.AddInitializer(name, Tensor::FromVector<int64_t>({1}, {value}));
  return name;
}

// y = Reshape(x, Concat(pieces)) with x typed `x_type`.
Model ReshapeModel(const ValueType& x_type,
                   const std::function<std::vector<std::string>(Graph&)>& pieces,
                   int64_t allowzero = 0) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.SetValueType("x", x_type);
  Node& concat = graph.AddNode({"concat", "Concat", "", pieces(graph), {"shape"}, {}});
  concat.SetAttribute(Attribute::Int("axis", 0));
  Node& reshape = graph.AddNode({"reshape", "Reshape", "", {"x", "shape"}, {"y"}, {}});
  if (allowzero != 0) reshape.SetAttribute(Attribute::Int("allowzero", allowzero));
  return model;
}

// The constant shape the Reshape producing "y" reads, or nullopt when it is still computed.
std::optional<std::vector<int64_t>> FusedShape(const Graph& graph) {
  const Tensor* shape = graph.GetInitializer(graph.Producer("y")->inputs()[1]);
  if (shape == nullptr) return std::nullopt;
  auto span = shape->Span<int64_t>();
  return std::vector<int64_t>(span.begin(), span.end());
}

const ValueType kBatchSeqHidden =
    SymbolicFloat({Dimension::Symbol("batch"), Dimension::Symbol("seq"), Dimension::Known(24)});

// x [batch, seq, 24] reshaped to [batch, seq, 2, 12] through the exporters' shape chain.
Model SplitLastAxisModel() {
  Model model = ReshapeModel(kBatchSeqHidden, [](Graph& graph) {
    return std::vector<std::string>{AddDimPiece(graph, "x", 0), AddDimPiece(graph, "x", 1),
                                    AddConstantPiece(graph, 2), AddConstantPiece(graph, 12)};
  });
  model.graph().ResolveOuterScope();
  return model;
}

}  // namespace

TEST_CASE("reshape_fusion turns x.view(x.size(0), x.size(1), 2, 12) into a constant shape",
          "[optimizer]") {
  Model model = SplitLastAxisModel();
  OptimizeBasic(model);
  CHECK(OpTypes(model.graph()) == Ops{"Reshape"});
  CHECK(FusedShape(model.graph()) == std::vector<int64_t>{0, 0, 2, 12});

  Model disabled = ReshapeModel(kBatchSeqHidden, [](Graph& graph) {
    return std::vector<std::string>{AddDimPiece(graph, "x", 0), AddConstantPiece(graph, -1)};
  });
  OptimizeBasic(disabled, {"reshape_fusion"});
  CHECK(!FusedShape(disabled.graph()));
}

TEST_CASE("reshape_fusion copies a dimension named by the same symbol in another tensor",
          "[optimizer]") {
  Model model = ReshapeModel(kBatchSeqHidden, [](Graph& graph) {
    graph.set_inputs({"x", "mask"});
    graph.SetValueType(
        "mask", ValueType::Tensor(DataType::kInt64, SymbolicShape{Dimension::Symbol("batch"),
                                                                  Dimension::Symbol("seq")}));
    return std::vector<std::string>{AddDimPiece(graph, "mask", 0), AddDimPiece(graph, "mask", 1),
                                    AddConstantPiece(graph, 24)};
  });
  OptimizeBasic(model);
  CHECK(OpTypes(model.graph()) == Ops{"Reshape"});
  CHECK(FusedShape(model.graph()) == std::vector<int64_t>{0, 0, 24});
}

TEST_CASE("reshape_fusion writes known dimensions and a single -1", "[optimizer]") {
  // x [4, seq, 24]: size(0) is known to be 4, so it is written as 4.
  const ValueType known_batch =
      SymbolicFloat({Dimension::Known(4), Dimension::Symbol("seq"), Dimension::Known(24)});
  Model known = ReshapeModel(known_batch, [](Graph& graph) {
    return std::vector<std::string>{AddDimPiece(graph, "x", 0), AddDimPiece(graph, "x", 1),
                                    AddConstantPiece(graph, 6), AddConstantPiece(graph, 4)};
  });
  OptimizeBasic(known);
  CHECK(FusedShape(known.graph()) == std::vector<int64_t>{4, 0, 6, 4});

  // A dimension of an unrelated tensor between known sizes becomes -1.
  auto other_dim = [](Graph& graph) {
    graph.set_inputs({"x", "other"});
    graph.SetValueType("other", SymbolicFloat({Dimension::Symbol("n")}));
    return std::vector<std::string>{AddConstantPiece(graph, 2), AddDimPiece(graph, "other", 0),
                                    AddConstantPiece(graph, 3)};
  };
  Model one_unknown = ReshapeModel(kBatchSeqHidden, other_dim);
  OptimizeBasic(one_unknown);
  CHECK(FusedShape(one_unknown.graph()) == std::vector<int64_t>{2, -1, 3});
}

// y = (word[ids] + position[position_ids]).view(ids.size(0), ids.size(1), 2, 12), where
// `add_positions` adds the nodes making "position_ids" and returns a [1] piece holding ids.size(1):
// what BERT exporters write. x's sequence dimension is only known through the positions.
static void CheckEmbeddingSumViewFolds(const std::function<std::string(Graph&)>& add_positions) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.set_inputs({"ids"});
  graph.set_outputs({"y"});
  graph.SetValueType("ids",
                     ValueType::Tensor(DataType::kInt64, SymbolicShape{Dimension::Symbol("batch"),
                                                                       Dimension::Symbol("seq")}));
  graph.AddInitializer("words", RandomTensor({10, 24}, 1));
  graph.AddInitializer("positions", RandomTensor({16, 24}, 2));
  const std::string length = add_positions(graph);
  graph.AddNode({"word", "Gather", "", {"words", "ids"}, {"w"}, {}});
  graph.AddNode({"position", "Gather", "", {"positions", "position_ids"}, {"p"}, {}});
  graph.AddNode({"add", "Add", "", {"w", "p"}, {"x"}, {}});
  const std::vector<std::string> pieces{AddDimPiece(graph, "ids", 0), length,
                                        AddConstantPiece(graph, 2), AddConstantPiece(graph, 12)};
  graph.AddNode({"concat", "Concat", "", pieces, {"shape"}, {}})
      .SetAttribute(Attribute::Int("axis", 0));
  graph.AddNode({"reshape", "Reshape", "", {"x", "shape"}, {"y"}, {}});
  graph.ResolveOuterScope();
  OptimizeBasic(model);
  CHECK(FusedShape(graph) == std::vector<int64_t>{0, 0, 2, 12});
}

TEST_CASE("reshape_fusion proves dimensions that shape inference computes", "[optimizer]") {
  // position_ids = Range(0, ids.size(1)).
  CheckEmbeddingSumViewFolds([](Graph& graph) {
    graph.AddInitializer("zero", Tensor::Scalar<int64_t>(0));
    graph.AddInitializer("one", Tensor::Scalar<int64_t>(1));
    graph.AddNode({"shape", "Shape", "", {"ids"}, {"ids_shape"}, {}});
    graph.AddNode({"length", "Gather", "", {"ids_shape", "one"}, {"length"}, {}});
    graph.AddNode({"range", "Range", "", {"zero", "length", "one"}, {"position_ids"}, {}});
    return AddDimPiece(graph, "ids", 1);
  });
}

TEST_CASE("reshape_fusion proves x[:, :seq] of a position table broadcast to seq", "[optimizer]") {
  // position_ids[:, :ids.size(1)] of a [1, 16] buffer (BERT's registered position_ids): the slice
  // has min(seq, 16) rows, which the broadcast against word[ids] makes seq in every valid run.
  CheckEmbeddingSumViewFolds([](Graph& graph) {
    std::vector<int64_t> buffer(16);
    for (int64_t i = 0; i < 16; ++i) buffer[static_cast<size_t>(i)] = i;
    graph.AddInitializer("position_buffer", Tensor::FromVector<int64_t>({1, 16}, buffer));
    graph.AddInitializer("zero", Tensor::FromVector<int64_t>({1}, {0}));
    graph.AddInitializer("one", Tensor::FromVector<int64_t>({1}, {1}));
    const std::string length = AddDimPiece(graph, "ids", 1);
    graph.AddNode(
        {"slice", "Slice", "", {"position_buffer", "zero", length, "one"}, {"position_ids"}, {}});
    return length;
  });
}

TEST_CASE("reshape_fusion writes -1 for a product and keeps a given -1", "[optimizer]") {
  // x.view(x.size(0) * x.size(1), 24)
  Model flattened = ReshapeModel(kBatchSeqHidden, [](Graph& graph) {
    graph.AddNode({"tokens", "Mul", "", {"dim_x_0", "dim_x_1"}, {"tokens"}, {}});
    AddDimPiece(graph, "x", 0);
    AddDimPiece(graph, "x", 1);
    graph.AddNode({"tokens_piece", "Unsqueeze", "", {"tokens", "axes0"}, {"tokens_piece"}, {}});
    return std::vector<std::string>{"tokens_piece", AddConstantPiece(graph, 24)};
  });
  OptimizeBasic(flattened);
  CHECK(FusedShape(flattened.graph()) == std::vector<int64_t>{-1, 24});

  // x.view(x.size(0), -1): the -1 was there, so the copied batch size may be anything.
  Model given = ReshapeModel(kBatchSeqHidden, [](Graph& graph) {
    return std::vector<std::string>{AddDimPiece(graph, "x", 0), AddConstantPiece(graph, -1)};
  });
  OptimizeBasic(given);
  CHECK(FusedShape(given.graph()) == std::vector<int64_t>{0, -1});

  // With allowzero the input's own size cannot be copied, but a single one can still be -1.
  Model allowzero = ReshapeModel(
      SymbolicFloat({Dimension::Symbol("batch"), Dimension::Known(24)}),
      [](Graph& graph) {
        return std::vector<std::string>{AddDimPiece(graph, "x", 0), AddConstantPiece(graph, 3),
                                        AddConstantPiece(graph, 8)};
      },
      /*allowzero=*/1);
  OptimizeBasic(allowzero);
  CHECK(FusedShape(allowzero.graph()) == std::vector<int64_t>{-1, 3, 8});
}

TEST_CASE("reshape_fusion leaves shapes it cannot prove equal", "[optimizer]") {
  // Swapped dimensions are not the input's own at their positions.
  Model swapped = ReshapeModel(kBatchSeqHidden, [](Graph& graph) {
    return std::vector<std::string>{AddDimPiece(graph, "x", 1), AddDimPiece(graph, "x", 0),
                                    AddConstantPiece(graph, 24)};
  });
  OptimizeBasic(swapped);
  CHECK(!FusedShape(swapped.graph()));

  // -1 next to a copied dimension could be undetermined when that dimension is 0.
  Model copy_and_unknown = ReshapeModel(kBatchSeqHidden, [](Graph& graph) {
    return std::vector<std::string>{AddDimPiece(graph, "x", 0), AddDimPiece(graph, "x", 2),
                                    AddDimPiece(graph, "x", 1)};
  });
  OptimizeBasic(copy_and_unknown);
  CHECK(!FusedShape(copy_and_unknown.graph()));

  // A -1 already in the shape leaves no room for an unknown piece.
  Model two_unknowns = ReshapeModel(kBatchSeqHidden, [](Graph& graph) {
    graph.set_inputs({"x", "other"});
    graph.SetValueType("other", SymbolicFloat({Dimension::Symbol("n")}));
    return std::vector<std::string>{AddDimPiece(graph, "other", 0), AddConstantPiece(graph, -1)};
  });
  OptimizeBasic(two_unknowns);
  CHECK(!FusedShape(two_unknowns.graph()));

  // With allowzero a 0 is a literal size: nothing can be copied.
  Model allowzero = ReshapeModel(
      kBatchSeqHidden,
      [](Graph& graph) {
        return std::vector<std::string>{AddDimPiece(graph, "x", 0), AddDimPiece(graph, "x", 1),
                                        AddConstantPiece(graph, 24)};
      },
      /*allowzero=*/1);
  OptimizeBasic(allowzero);
  CHECK(!FusedShape(allowzero.graph()));
}

TEST_CASE("reshape_fusion keeps a chain value that is a graph output", "[optimizer]") {
  Model model = ReshapeModel(kBatchSeqHidden, [](Graph& graph) {
    return std::vector<std::string>{AddDimPiece(graph, "x", 0), AddDimPiece(graph, "x", 1),
                                    AddConstantPiece(graph, 24)};
  });
  Graph& graph = model.graph();
  graph.set_outputs({"y", "dim_x_1"});
  OptimizeBasic(model);
  CHECK(FusedShape(graph) == std::vector<int64_t>{0, 0, 24});
  CHECK(OpTypes(graph) == Ops{"Shape", "Gather", "Reshape"});
  CHECK(graph.Producer("dim_x_1") != nullptr);
}

TEST_CASE("A fused Reshape gives the same outputs as the computed shape", "[optimizer]") {
  auto run = [](OptimizationLevel level) {
    SessionOptions options;
    options.optimization_level = level;
    const auto session = MakeCpuSession(std::make_unique<Model>(SplitLastAxisModel()), options);
    std::vector<float> data(2 * 3 * 24);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) * 0.5f - 7;
    std::vector<NamedValue> feeds{{"x", Value(Tensor::FromVector<float>({2, 3, 24}, data))}};
    std::vector<Value> outputs;
    REQUIRE(session->Run({}, feeds, {}, &outputs).ok());
    const Tensor& y = outputs[0].tensor();
    auto span = y.Span<float>();
    return std::make_tuple(session->ExecutionOrder().size(), y.shape(),
                           std::vector<float>(span.begin(), span.end()), data);
  };
  const auto [plain_nodes, plain_shape, plain, data] = run(OptimizationLevel::kDisable);
  const auto [fused_nodes, fused_shape, fused, unused] = run(OptimizationLevel::kBasic);
  CHECK(plain_nodes == 7);
  CHECK(fused_nodes == 1);
  CHECK(plain_shape == TensorShape{2, 3, 2, 12});
  CHECK(fused_shape == plain_shape);
  CHECK(fused == plain);
  CHECK(plain == data);  // a reshape keeps the elements in order
}

TEST_CASE("Fixing symbolic dimensions lets constant folding compute the whole shape chain",
          "[optimizer]") {
  auto nodes_after = [](std::map<std::string, int64_t> free_dims) {
    SessionOptions options;
    options.optimization_level = OptimizationLevel::kBasic;
    options.free_dimension_overrides = std::move(free_dims);
    // Without reshape_fusion only folding can remove the chain.
    options.disabled_optimizers = {"reshape_fusion"};
    const auto session = MakeCpuSession(std::make_unique<Model>(SplitLastAxisModel()), options);
    return session->ExecutionOrder().size();
  };
  CHECK(nodes_after({}) == 7);
  CHECK(nodes_after({{"batch", 2}, {"seq", 3}}) == 1);
}

}  // namespace ort::test
