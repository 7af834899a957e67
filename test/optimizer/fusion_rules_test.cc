// The basic level's fusions: Conv with BatchNormalization / Add / Mul, Relu into Clip, MatMul+Add
// into Gemm. Fused constants are checked against values worked out by hand, and a fused model
// against the unfused one run by the same kernels.
#include "lib/optimizer/fusion_patterns.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

// y = Conv(x, W [2,1,1,1] = {2, 3}, B = {1, -1}) on x [1,1,2,2]; the conv output is "c".
void AddConv(Graph& graph, bool with_bias = true) {
  graph.AddInitializer("W", Tensor::FromVector<float>({2, 1, 1, 1}, {2, 3}));
  std::vector<std::string> inputs{"x", "W"};
  if (with_bias) {
    graph.AddInitializer("B", Tensor::FromVector<float>({2}, {1, -1}));
    inputs.push_back("B");
  }
  graph.AddNode({"conv", "Conv", "", inputs, {"c"}, {}});
}

std::vector<float> Values(const Graph& graph, const Node& node, size_t input) {
  const Tensor* tensor = graph.GetInitializer(node.inputs()[input]);
  REQUIRE(tensor != nullptr);
  auto span = tensor->Span<float>();
  return {span.begin(), span.end()};
}

Model BatchNormModel(bool second_reader = false, int64_t training = 0) {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs(second_reader ? std::vector<std::string>{"y", "z"}
                                  : std::vector<std::string>{"y"});
  AddConv(graph);
  graph.AddInitializer("gamma", Tensor::FromVector<float>({2}, {1, 2}));
  graph.AddInitializer("beta", Tensor::FromVector<float>({2}, {0.5f, 0}));
  graph.AddInitializer("mean", Tensor::FromVector<float>({2}, {1, 2}));
  graph.AddInitializer("var", Tensor::FromVector<float>({2}, {3, 0}));
  Node& bn = graph.AddNode(
      {"bn", "BatchNormalization", "", {"c", "gamma", "beta", "mean", "var"}, {"y"}, {}});
  bn.SetAttribute(Attribute::Float("epsilon", 1.0f));
  if (training != 0) bn.SetAttribute(Attribute::Int("training_mode", training));
  if (second_reader) graph.AddNode({"neg", "Neg", "", {"c"}, {"z"}, {}});
  return model;
}

}  // namespace

TEST_CASE("fuse_conv_batchnorm folds inference BatchNormalization into the Conv", "[optimizer]") {
  Model model = BatchNormModel();
  OptimizeBasic(model);
  const Graph& graph = model.graph();
  REQUIRE(OpTypes(graph) == Ops{"Conv"});
  const Node& conv = *graph.Producer("y");
  // s = gamma / sqrt(var + eps) = {1/2, 2}; W' = W s = {1, 6}; B' = (B - mean) s + beta.
  CHECK(Values(graph, conv, 1) == std::vector<float>{1, 6});
  CHECK(Values(graph, conv, 2) == std::vector<float>{0.5f, -6});
  CHECK(graph.GetInitializer("W") == nullptr);  // the old weights went with dead-node removal

  Model shared = BatchNormModel(/*second_reader=*/true);
  OptimizeBasic(shared);
  CHECK(OpTypes(shared.graph()).size() == 3);
  Model training = BatchNormModel(false, /*training=*/1);
  OptimizeBasic(training);
  CHECK(OpTypes(training.graph()).size() == 2);
  Model disabled = BatchNormModel();
  OptimizeBasic(disabled, {"fuse_conv_batchnorm"});
  CHECK(OpTypes(disabled.graph()).size() == 2);
}

TEST_CASE("fuse_conv_add and fuse_conv_mul take per-channel constants only", "[optimizer]") {
  auto build = [](const char* op, TensorShape shape, std::vector<float> values, bool bias) {
    Model model = MakeModel();
    Graph& graph = model.graph();
    graph.set_inputs({"x"});
    graph.set_outputs({"y"});
    AddConv(graph, bias);
    graph.AddInitializer("k", Tensor::FromVector<float>(shape, values));
    graph.AddNode({"op", op, "", {"k", "c"}, {"y"}, {}});
    OptimizeBasic(model);
    return model;
  };
  Model add = build("Add", TensorShape({2, 1, 1}), {10, 20}, true);
  REQUIRE(OpTypes(add.graph()) == Ops{"Conv"});
  CHECK(Values(add.graph(), *add.graph().Producer("y"), 2) == std::vector<float>{11, 19});

  Model mul = build("Mul", TensorShape({1, 2, 1, 1}), {10, 20}, false);
  REQUIRE(OpTypes(mul.graph()) == Ops{"Conv"});
  const Node& scaled = *mul.graph().Producer("y");
  CHECK(Values(mul.graph(), scaled, 1) == std::vector<float>{20, 60});
  CHECK(Values(mul.graph(), scaled, 2) == std::vector<float>{0, 0});

  Model scalar = build("Mul", TensorShape({1}), {3}, true);
  CHECK(Values(scalar.graph(), *scalar.graph().Producer("y"), 2) == std::vector<float>{3, -3});

  // [2] lines up with the last (width) axis, not the channels.
  CHECK(OpTypes(build("Add", TensorShape({2}), {1, 2}, true).graph()) == Ops{"Conv", "Add"});
  CHECK(OpTypes(build("Mul", TensorShape({1, 1, 1, 1, 2}), {1, 2}, true).graph()) ==
        Ops{"Conv", "Mul"});
}

TEST_CASE("fuse_matmul_add_into_gemm needs 2-D operands and a bias that does not enlarge",
          "[optimizer]") {
  auto build = [](std::vector<int64_t> a_dims, std::vector<int64_t> c_dims, bool product_out) {
    Model model = MakeModel();
    Graph& graph = model.graph();
    graph.set_inputs({"a", "c"});
    graph.set_outputs(product_out ? std::vector<std::string>{"y", "p"}
                                  : std::vector<std::string>{"y"});
    graph.SetValueType("a", FloatTensor(a_dims));
    graph.SetValueType("c", FloatTensor(c_dims));
    graph.AddInitializer("b", Tensor::FromVector<float>({3, 5}, std::vector<float>(15, 1.0f)));
    std::vector<int64_t> p_dims = a_dims;
    p_dims.back() = 5;
    graph.SetValueType("p", FloatTensor(p_dims));
    graph.AddNode({"mm", "MatMul", "", {"a", "b"}, {"p"}, {}});
    graph.AddNode({"add", "Add", "", {"c", "p"}, {"y"}, {}});
    OptimizeBasic(model);
    return OpTypes(model.graph());
  };
  CHECK(build({4, 3}, {5}, false) == Ops{"Gemm"});
  CHECK(build({4, 3}, {4, 1}, false) == Ops{"Gemm"});
  CHECK(build({2, 4, 3}, {5}, false) == Ops{"MatMul", "Add"});     // batched MatMul
  CHECK(build({4, 3}, {2, 4, 5}, false) == Ops{"MatMul", "Add"});  // the sum is 3-D
  CHECK(build({4, 3}, {3, 5}, false) == Ops{"MatMul", "Add"});     // 3 rows do not fit 4
  CHECK(build({4, 3}, {5}, true) == Ops{"MatMul", "Add"});         // the product is an output
}

TEST_CASE("fuse_relu_clip raises Clip's min to zero", "[optimizer]") {
  auto build = [](int64_t opset, bool second_reader) {
    Model model = MakeModel(opset);
    Graph& graph = model.graph();
    graph.set_inputs({"x"});
    graph.set_outputs(second_reader ? std::vector<std::string>{"y", "r"}
                                    : std::vector<std::string>{"y"});
    graph.SetValueType("x", FloatTensor({4}));
    graph.AddNode({"relu", "Relu", "", {"x"}, {"r"}, {}});
    if (opset >= 11) {
      graph.AddInitializer("min", Tensor::Scalar<float>(-1));
      graph.AddInitializer("max", Tensor::Scalar<float>(6));
      graph.AddNode({"clip", "Clip", "", {"r", "min", "max"}, {"y"}, {}});
    } else {
      Node& clip = graph.AddNode({"clip", "Clip", "", {"r"}, {"y"}, {}});
      clip.SetAttribute(Attribute::Float("min", -1));
      clip.SetAttribute(Attribute::Float("max", 6));
    }
    OptimizeBasic(model);
    return model;
  };
  Model fused = build(14, false);
  REQUIRE(OpTypes(fused.graph()) == Ops{"Clip"});
  const Node& clip = *fused.graph().Producer("y");
  CHECK(clip.inputs()[0] == "x");
  CHECK(Values(fused.graph(), clip, 1) == std::vector<float>{0});
  CHECK(Values(fused.graph(), clip, 2) == std::vector<float>{6});
  Model old_opset = build(6, false);
  REQUIRE(OpTypes(old_opset.graph()) == Ops{"Clip"});
  CHECK(old_opset.graph().Producer("y")->FindAttribute("min")->f == 0.0f);
  CHECK(OpTypes(build(14, true).graph()) == Ops{"Relu", "Clip"});
}

TEST_CASE("A Conv, BatchNormalization, Add, Mul chain gives the same outputs fused",
          "[optimizer]") {
  auto run = [](OptimizationLevel level) {
    Model model = BatchNormModel();
    Graph& graph = model.graph();
    graph.AddInitializer("shift", Tensor::FromVector<float>({2, 1, 1}, {0.25f, -2}));
    graph.AddInitializer("scale", Tensor::FromVector<float>({1, 2, 1, 1}, {3, -0.5f}));
    graph.AddNode({"add", "Add", "", {"y", "shift"}, {"s"}, {}});
    graph.AddNode({"mul", "Mul", "", {"scale", "s"}, {"out"}, {}});
    graph.set_outputs({"out"});
    return RunOnCpu(std::move(model), level,
                    {{"x", Value(Tensor::FromVector<float>({1, 1, 2, 2}, {1, -2, 0.5f, 4}))}});
  };
  const CpuRun plain = run(OptimizationLevel::kDisable);
  const CpuRun fused = run(OptimizationLevel::kBasic);
  CHECK(plain.executed.size() == 4);
  CHECK(fused.executed.size() == 1);
  CheckClose(fused.output, plain.output, /*margin=*/0, /*epsilon=*/1e-5);
}

TEST_CASE("fuse_hard_swish makes x * Clip(x + 3, 0, 6) / 6 a HardSigmoid and a Mul",
          "[optimizer]") {
  // x * Clip(x + 3, 0, 6) scaled by 1/6 through `scale_op`; `extra_reader` also reads the Clip.
  auto build = [](int64_t opset, const std::string& scale_op, bool extra_reader) {
    Model model = MakeModel(opset);
    Graph& graph = model.graph();
    graph.set_inputs({"x"});
    graph.SetValueType("x", FloatTensor({1, 2, 2, 2}));
    graph.AddInitializer("three", Tensor::Scalar<float>(3));
    graph.AddInitializer("scale", Tensor::Scalar<float>(scale_op == "Div" ? 6.0f : 1.0f / 6));
    graph.AddNode({"add", "Add", "", {"three", "x"}, {"shifted"}, {}});
    if (opset >= 11) {
      graph.AddInitializer("zero", Tensor::Scalar<float>(0));
      graph.AddInitializer("six", Tensor::Scalar<float>(6));
      graph.AddNode({"clip", "Clip", "", {"shifted", "zero", "six"}, {"clipped"}, {}});
    } else {
      Node& clip = graph.AddNode({"clip", "Clip", "", {"shifted"}, {"clipped"}, {}});
      clip.SetAttribute(Attribute::Float("min", 0));
      clip.SetAttribute(Attribute::Float("max", 6));
    }
    graph.AddNode({"mul", "Mul", "", {"x", "clipped"}, {"product"}, {}});
    graph.AddNode({"scale", scale_op, "", {"product", "scale"}, {"y"}, {}});
    graph.set_outputs(extra_reader ? std::vector<std::string>{"y", "clipped"}
                                   : std::vector<std::string>{"y"});
    return model;
  };
  auto run = [](Model model, OptimizationLevel level) {
    const Tensor x = Tensor::FromVector<float>({1, 2, 2, 2}, {-4, -3, -1.5f, 0, 0.75f, 2, 3, 9});
    return RunOnCpu(std::move(model), level, {{"x", Value(x)}}).output;
  };
  // Hand-derived x * min(max(x + 3, 0), 6) / 6.
  const std::vector<float> expected{0, 0, -0.375f, 0, 0.46875f, 5.0f / 3, 3, 9};
  for (int64_t opset : {7, 14}) {
    for (const std::string scale_op : {"Div", "Mul"}) {
      INFO("opset " << opset << " " << scale_op);
      Model model = build(opset, scale_op, false);
      OptimizeBasic(model);
      CHECK(OpTypes(model.graph()) == Ops{"HardSigmoid", "Mul"});
      const std::vector<float> fused =
          run(build(opset, scale_op, false), OptimizationLevel::kBasic);
      const std::vector<float> plain =
          run(build(opset, scale_op, false), OptimizationLevel::kDisable);
      for (size_t i = 0; i < expected.size(); ++i) {
        CHECK(fused[i] == Approx(expected[i]).epsilon(1e-6));
        CHECK(plain[i] == Approx(expected[i]).epsilon(1e-6));
      }
    }
  }
  Model shared = build(14, "Div", true);
  OptimizeBasic(shared);
  CHECK(OpTypes(shared.graph()) == Ops{"Add", "Clip", "Mul", "Div"});
}

TEST_CASE("ReplaceByFusedNode removes a node listed in two roles once", "[optimizer]") {
  // A packed projection's Split is part of the q, k and v chains alike (valgrind saw the second
  // removal read the freed node).
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({2}));
  graph.AddNode({"neg", "Neg", "", {"x"}, {"n"}, {}});
  graph.AddNode({"abs", "Abs", "", {"n"}, {"y"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  const Node* neg = graph.Producer("n");
  const Node* abs = graph.Producer("y");
  ReplaceByFusedNode(graph, {neg, abs, neg}, {"fused", "Abs", "", {"x"}, {"y"}, {}});
  CHECK(OpTypes(graph) == Ops{"Abs"});
  CHECK(graph.Producer("y")->inputs() == std::vector<std::string>{"x"});
}

}  // namespace ort::test
