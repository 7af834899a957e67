// The symbolic shape analysis itself: where facts come from (constants, declared inputs, fresh
// symbols that avoid the model's names), how recorded types are reconciled with inferred ones,
// If branches, subgraphs reading outer values, malformed graphs (cycles, deep chains), and the
// spelling of dimensions as dim_params.
#include "test/shape/shape_test_util.h"

namespace ort::test {

TEST_CASE("Fresh symbols avoid the model's names and equal nothing else", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"unk_0", int64_t{3}});
  g.graph().SetValueType("y", ValueType::Tensor(DataType::kFloat, SymbolicShape(2)));
  g.graph().set_inputs({"x", "y"});
  SymbolicShapes& shapes = g.Analyse();
  const std::vector<DimExpr>& y = *shapes.Facts("y").shape;
  CHECK(y[0].ToString() == "unk_1");
  CHECK(y[1].ToString() == "unk_2");
  CHECK(shapes.symbols().IsFresh(y[0]));
  CHECK(!shapes.symbols().IsFresh((*shapes.Facts("x").shape)[0]));
  CHECK(shapes.symbols().IsModelSymbol("unk_0"));
}

TEST_CASE("Constants give exact shapes and values", "[shape]") {
  ShapeGraph g;
  g.Ints("small", {2, -1, 5});
  g.graph().AddInitializer("big", Tensor::FromVector<int64_t>({100}, std::vector<int64_t>(100)));
  g.graph().AddInitializer("flag", Tensor::FromVector<bool>({2}, {true, false}));
  g.graph().AddInitializer("matrix", Tensor::FromVector<int64_t>({2, 2}, {1, 2, 3, 4}));
  // An initializer that is also an input may be fed: only its declared type counts.
  g.Ints("overridable", {4});
  g.graph().set_inputs({"overridable"});
  CHECK(g.Values("small") == "[2,-1,5]");
  CHECK(g.Values("big") == "none");
  CHECK(g.Shape("big") == "[100]");
  CHECK(g.Values("flag") == "[1,0]");
  CHECK(g.Values("matrix") == "none");
  CHECK(g.Values("overridable") == "none");
  CHECK(g.Shape("overridable") == "[1]");
}

TEST_CASE("Recorded types reconcile with inferred shapes", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"batch", "seq", int64_t{8}});
  g.Input("anonymous", {"batch", "seq", int64_t{8}});
  g.graph().SetValueType(
      "anonymous",
      ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("batch"), Dimension{},
                                                        Dimension::Known(8)}));
  g.Add("Relu", {"x"}, {"known"});
  g.graph().SetValueType(
      "known", ValueType::Tensor(DataType::kFloat,
                                 SymbolicShape{Dimension::Known(2), Dimension::Symbol("unk__7"),
                                               Dimension::Known(8)}));
  g.Add("Relu", {"anonymous"}, {"named"});
  g.graph().SetValueType(
      "named", ValueType::Tensor(DataType::kFloat,
                                 SymbolicShape{Dimension::Symbol("b"), Dimension::Symbol("s"),
                                               Dimension::Known(8)}));
  g.Add("Relu", {"x"}, {"contradicted"});
  g.graph().SetValueType(
      "contradicted", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("batch"),
                                                                        Dimension::Symbol("seq"),
                                                                        Dimension::Known(9)}));
  g.Add("Relu", {"x"}, {"other_rank"});
  g.graph().SetValueType("other_rank",
                         ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(8)}));
  g.Add("SomeCustomOp", {"x"}, {"custom"}, "custom.domain");
  g.graph().SetValueType(
      "custom",
      ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("batch"), Dimension{}}));
  g.Add("Relu", {"x"}, {"sequence"});
  g.graph().SetValueType("sequence", ValueType::SequenceOf(ValueType::Tensor(DataType::kFloat)));

  // A recorded number wins over a symbol; an inferred symbol over a recorded unrelated one.
  CHECK(g.Shape("known") == "[2,seq,8]");
  // A fresh dimension takes the recorded name; an inferred symbol keeps its own.
  CHECK(g.Shape("named") == "[batch,s,8]");
  CHECK(g.Shape("contradicted") == "[batch,seq,?]");
  CHECK(g.Shape("other_rank") == "?");
  CHECK(g.Shape("custom") == "[batch,?]");
  CHECK(g.Shape("sequence") == "?");
}

TEST_CASE("If outputs keep what both branches agree on", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"batch", int64_t{4}});
  g.Input("cond", {}, DataType::kBool);
  auto branch = [&g](const std::string& name, bool transpose) {
    auto body = std::make_unique<Graph>(g.graph().shared_opsets());
    if (transpose) {
      body->AddNode({name + "_t", "Transpose", "", {"x"}, {name + "_out"}, {}});
    } else {
      body->AddNode({name + "_r", "Relu", "", {"x"}, {name + "_out"}, {}});
    }
    body->AddNode({name + "_s", "Shape", "", {"x"}, {name + "_shape"}, {}});
    body->set_outputs({name + "_out", name + "_out", name + "_shape"});
    return body;
  };
  Node& same = g.Add("If", {"cond"}, {"same", "same2", "shape"});
  same.SetAttribute(Attribute::GraphValue("then_branch", branch("a", false)));
  same.SetAttribute(Attribute::GraphValue("else_branch", branch("b", false)));
  Node& mixed = g.Add("If", {"cond"}, {"mixed", "mixed2", "mixed_shape"});
  mixed.SetAttribute(Attribute::GraphValue("then_branch", branch("c", false)));
  mixed.SetAttribute(Attribute::GraphValue("else_branch", branch("d", true)));
  g.Add("If", {"cond"}, {"no_branches"});

  CHECK(g.Shape("same") == "[batch,4]");
  CHECK(g.Values("shape") == "[batch,4]");
  CHECK(g.Shape("mixed") == "[?,?]");  // [batch,4] against [4,batch]
  CHECK(g.Values("mixed_shape") == "[batch,4]");
  CHECK(g.Shape("no_branches") == "?");
}

TEST_CASE("Malformed graphs are analysed without crashing", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"n"});
  // A cycle: a reads b, b reads a.
  g.Add("Relu", {"b"}, {"a"});
  g.Add("Add", {"a", "x"}, {"b"});
  g.Add("Relu", {"b"}, {"after"});
  // A node reading its own output.
  g.Add("Add", {"x", "self"}, {"self"});
  // A chain deeper than any recursion would survive.
  std::string previous = "x";
  for (int i = 0; i < 100000; ++i) {
    const std::string next = "deep" + std::to_string(i);
    g.Add("Neg", {previous}, {next});
    previous = next;
  }
  // Nothing is known on a cycle, nor after it.
  CHECK(g.Shape("after") == "?");
  CHECK(g.Shape("self") == "?");
  CHECK(g.Shape(previous) == "[n]");
}

TEST_CASE("Dimensions are spelled as dim_params", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"seq", "2*seq"});
  SymbolicShapes& shapes = g.Analyse();
  const DimExpr seq = DimExpr::Symbol("seq");
  const SymbolTable& symbols = shapes.symbols();
  CHECK(ToDimension(DimExpr::Constant(7), symbols) == Dimension::Known(7));
  CHECK(!ToDimension(DimExpr::Constant(-1), symbols));
  CHECK(ToDimension(seq, symbols) == Dimension::Symbol("seq"));
  CHECK(ToDimension(*Add(seq, DimExpr::Constant(1)), symbols) == Dimension::Symbol("seq+1"));
  // The model names another dimension "2*seq": the product may not take its name.
  CHECK(!ToDimension(*Mul(seq, DimExpr::Constant(2)), symbols));
}

}  // namespace ort::test
