// symbolic_shape_inference: node outputs get the dimensions symbolic shape inference proves where
// onnx's inference left them unknown or gave them unrelated unk__ names; graph outputs keep their
// declared names; the pass settles (a second run changes nothing); saved models carry the
// dimensions as dim_params and reload.
#include "lib/onnx/model_loader.h"
#include "lib/onnx/model_proto.h"
#include "lib/optimizer/passes.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

// x = words[ids] + positions[Range(0, ids.size(1))]; doubled = Concat(x, x, axis 1);
// outputs y = Relu(doubled) (declared [batch, ?, 24]) and z = Neg(doubled) ([batch, length, 24]).
Model EmbeddingModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  const auto ids_type = ValueType::Tensor(
      DataType::kInt64, SymbolicShape{Dimension::Symbol("batch"), Dimension::Symbol("seq")});
  graph.SetValueType("ids", ids_type);
  graph.set_inputs({"ids"});
  graph.AddInitializer("words", RandomTensor({10, 24}, 1));
  graph.AddInitializer("positions", RandomTensor({16, 24}, 2));
  graph.AddInitializer("zero", Tensor::Scalar<int64_t>(0));
  graph.AddInitializer("one", Tensor::Scalar<int64_t>(1));
  graph.AddNode({"shape", "Shape", "", {"ids"}, {"ids_shape"}, {}});
  graph.AddNode({"length", "Gather", "", {"ids_shape", "one"}, {"length"}, {}});
  graph.AddNode({"range", "Range", "", {"zero", "length", "one"}, {"position_ids"}, {}});
  graph.AddNode({"word", "Gather", "", {"words", "ids"}, {"w"}, {}});
  graph.AddNode({"position", "Gather", "", {"positions", "position_ids"}, {"p"}, {}});
  graph.AddNode({"add", "Add", "", {"w", "p"}, {"x"}, {}});
  graph.AddNode({"concat", "Concat", "", {"x", "x"}, {"doubled"}, {}})
      .SetAttribute(Attribute::Int("axis", 1));
  graph.AddNode({"relu", "Relu", "", {"doubled"}, {"y"}, {}});
  graph.AddNode({"neg", "Neg", "", {"doubled"}, {"z"}, {}});
  graph.SetValueType(
      "y", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("batch"),
                                                             Dimension{}, Dimension::Known(24)}));
  graph.SetValueType(
      "z", ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{Dimension::Symbol("batch"), Dimension::Symbol("length"),
                                           Dimension::Known(24)}));
  graph.set_outputs({"y", "z"});
  graph.ResolveOuterScope();
  return model;
}

std::string Spelled(const Graph& graph, const std::string& value) {
  const ValueType* type = graph.FindTypeInScope(value);
  return type != nullptr && type->shape ? SymbolicShapeToString(*type->shape) : "none";
}

}  // namespace

TEST_CASE("symbolic_shape_inference records the dimensions it proves", "[optimizer]") {
  Model model = EmbeddingModel();
  InferModelTypes(model);
  const Graph& graph = model.graph();
  // onnx's inference cannot tell the Range's length or the broadcast's result.
  CHECK(Spelled(graph, "x").find("seq") == std::string::npos);

  OptimizeBasic(model);
  CHECK(Spelled(graph, "x") == "[batch,seq,24]");
  CHECK(Spelled(graph, "doubled") == "[batch,2*seq,24]");
  CHECK(Spelled(graph, "y") == "[batch,2*seq,24]");
  CHECK(Spelled(graph, "z") == "[batch,length,24]");

  // Settled: a second run changes nothing.
  bool changed = false;
  REQUIRE(CreateSymbolicShapeInference()->Apply(model.graph(), {}, changed).ok());
  CHECK(!changed);

  // Saved, the dimensions are dim_params; the model reloads with them.
  auto bytes = SerializeModel(model);
  REQUIRE(bytes.ok());
  auto reloaded = LoadModelFromBytes(bytes->data(), bytes->size(), "");
  REQUIRE(reloaded.ok());
  CHECK(Spelled((*reloaded)->graph(), "doubled") == "[batch,2*seq,24]");
}

TEST_CASE("symbolic_shape_inference gives a rank onnx could not", "[optimizer]") {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("n"),
                                                                            Dimension::Known(6)}));
  graph.set_inputs({"x"});
  graph.AddNode({"shape", "Shape", "", {"x"}, {"shape"}, {}});
  graph.AddNode({"reshape", "Reshape", "", {"x", "shape"}, {"same"}, {}});
  graph.AddNode({"relu", "Relu", "", {"same"}, {"y"}, {}});
  graph.SetValueType("same", ValueType::Tensor(DataType::kFloat));
  graph.set_outputs({"y"});
  graph.ResolveOuterScope();
  OptimizeBasic(model, {"reshape_fusion"});
  CHECK(Spelled(graph, "same") == "[n,6]");
}

}  // namespace ort::test
