#include <catch2/catch.hpp>

#include "test/providers/cpu/controlflow/graph_test_util.h"

namespace ort::test {
namespace {

// The then_branch and else_branch attributes of an If node.
std::vector<Attribute> Branches(std::unique_ptr<Graph> then_branch,
                                std::unique_ptr<Graph> else_branch) {
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::GraphValue("then_branch", std::move(then_branch)));
  attributes.push_back(Attribute::GraphValue("else_branch", std::move(else_branch)));
  return attributes;
}

// then: x + y; else: x * y. Both read x and y from the main graph.
TestModel MakeArithmeticIf() {
  TestModel model(16);
  auto then_graph = model.NewSubgraph("then");
  GraphBuilder(*then_graph).Node("Add", {"x", "y"}, {"sum"}).Output("sum", FloatType({2}));
  auto else_graph = model.NewSubgraph("else");
  GraphBuilder(*else_graph).Node("Mul", {"x", "y"}, {"product"}).Output("product", FloatType({2}));
  model.main()
      .Input("cond", TensorType(DataType::kBool, {}))
      .Input("x", FloatType({2}))
      .Input("y", FloatType({2}))
      .Node("If", {"cond"}, {"result"}, Branches(std::move(then_graph), std::move(else_graph)))
      .Output("result");
  return model;
}

// Runs If(cond) on x = [1] whose branches both compute x + x; the then-branch also returns x
// when `then_returns_x_too`.
Status RunDoublingIf(std::vector<int64_t> cond_dims, Tensor cond, bool then_returns_x_too) {
  TestModel model(16);
  auto then_graph = model.NewSubgraph("then");
  GraphBuilder then_builder(*then_graph);
  then_builder.Node("Add", {"x", "x"}, {"a"}).Output("a");
  if (then_returns_x_too) then_builder.Output("x");
  auto else_graph = model.NewSubgraph("else");
  GraphBuilder(*else_graph).Node("Add", {"x", "x"}, {"b"}).Output("b");
  model.main()
      .Input("cond", TensorType(DataType::kBool, std::move(cond_dims)))
      .Input("x", FloatType({1}))
      .Node("If", {"cond"}, {"r"}, Branches(std::move(then_graph), std::move(else_graph)))
      .Output("r");
  std::vector<Value> outputs;
  return model.Run({{"cond", std::move(cond)}, {"x", Floats({1}, {1})}}, &outputs);
}

}  // namespace

TEST_CASE("If runs the branch the condition picks, reading outer-scope values",
          "[controlflow][If]") {
  for (bool condition : {true, false}) {
    TestModel model = MakeArithmeticIf();
    std::vector<Value> outputs;
    Status status = model.Run(
        {{"cond", Bools({}, {condition})}, {"x", Floats({2}, {1, 2})}, {"y", Floats({2}, {3, 4})}},
        &outputs);
    REQUIRE(status.ToString() == "OK");
    CheckValue(outputs[0], condition ? Floats({2}, {4, 6}) : Floats({2}, {3, 8}));
  }
}

TEST_CASE("If nests: an inner branch reads values from two scopes up", "[controlflow][If]") {
  TestModel model(13);
  // Inner If (inside the outer then-branch): then -> x + t, else -> x * t, where x comes from
  // the main graph and t is computed in the outer branch.
  auto inner_then = model.NewSubgraph("inner_then");
  GraphBuilder(*inner_then).Node("Add", {"x", "t"}, {"a"}).Output("a");
  auto inner_else = model.NewSubgraph("inner_else");
  GraphBuilder(*inner_else).Node("Mul", {"x", "t"}, {"m"}).Output("m");
  auto outer_then = model.NewSubgraph("outer_then");
  GraphBuilder(*outer_then)
      .Node("Add", {"x", "x"}, {"t"})
      .Node("If", {"inner_cond"}, {"inner_result"},
            Branches(std::move(inner_then), std::move(inner_else)))
      .Output("inner_result");
  auto outer_else = model.NewSubgraph("outer_else");
  GraphBuilder(*outer_else).Node("Sub", {"x", "x"}, {"zero"}).Output("zero");
  model.main()
      .Input("outer_cond", TensorType(DataType::kBool, {1}))
      .Input("inner_cond", TensorType(DataType::kBool, {1}))
      .Input("x", FloatType({3}))
      .Node("If", {"outer_cond"}, {"y"}, Branches(std::move(outer_then), std::move(outer_else)))
      .Output("y");
  std::vector<Value> outputs;
  Status status = model.Run({{"outer_cond", Bools({1}, {true})},
                             {"inner_cond", Bools({1}, {false})},
                             {"x", Floats({3}, {1, 2, -3})}},
                            &outputs);
  REQUIRE(status.ToString() == "OK");
  // x * (x + x)
  CheckValue(outputs[0], Floats({3}, {2, 8, 18}));
}

TEST_CASE("If forwards sequences and several outputs", "[controlflow][If]") {
  TestModel model(16);
  auto then_graph = model.NewSubgraph("then");
  GraphBuilder(*then_graph)
      .Node("SequenceConstruct", {"x", "x"}, {"seq"})
      .Node("Add", {"x", "x"}, {"twice"})
      .Output("seq")
      .Output("twice");
  auto else_graph = model.NewSubgraph("else");
  GraphBuilder(*else_graph)
      .Node("SequenceConstruct", {"x"}, {"single"})
      .Node("Mul", {"x", "x"}, {"square"})
      .Output("single")
      .Output("square");
  model.main()
      .Input("cond", TensorType(DataType::kBool, {}))
      .Input("x", FloatType({2}))
      .Node("If", {"cond"}, {"s", "v"}, Branches(std::move(then_graph), std::move(else_graph)))
      .Output("s")
      .Output("v");
  std::vector<Value> outputs;
  REQUIRE(model.Run({{"cond", Bools({}, {false})}, {"x", Floats({2}, {3, -1})}}, &outputs).ok());
  CheckValue(outputs[0], TensorSequence{DataType::kFloat, {Floats({2}, {3, -1})}});
  CheckValue(outputs[1], Floats({2}, {9, 1}));
}

TEST_CASE("If rejects a condition that is not one bool", "[controlflow][If]") {
  const Status status = RunDoublingIf({2}, Bools({2}, {true, false}), false);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("single bool") != std::string::npos);
}

TEST_CASE("If rejects branches with the wrong number of outputs", "[controlflow][If]") {
  const Status status = RunDoublingIf({}, Bools({}, {true}), true);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("outputs") != std::string::npos);
}

}  // namespace ort::test
