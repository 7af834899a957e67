// The extended level's Conv, Gemm and MatMul fusions: Conv + activation into FusedConv, Gemm +
// activation into FusedGemm, and Transposes and scalar scales around a MatMul into FusedMatMul.
// Each is checked for the nodes and attributes left, for the cases that must stay unfused, and for
// outputs equal to the unfused model's.
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

// act(Conv(x [1,2,3,3], W [2,2,1,1], B)) with `act` the given op.
Model ConvActivationModel(const std::string& act, int64_t opset = 14, bool fed_max = false) {
  Model model = MakeModel(opset);
  Graph& graph = model.graph();
  std::vector<std::string> inputs{"x"};
  graph.SetValueType("x", FloatTensor({1, 2, 3, 3}));
  graph.AddInitializer("W", RandomTensor({2, 2, 1, 1}, 1));
  graph.AddInitializer("B", RandomTensor({2}, 2));
  graph.AddNode({"conv", "Conv", "", {"x", "W", "B"}, {"c"}, {}})
      .SetAttribute(Attribute::Ints("kernel_shape", {1, 1}));
  std::vector<std::string> act_inputs{"c"};
  if (act == "Clip" && opset >= 11) {
    graph.AddInitializer("lo", Tensor::Scalar<float>(-0.5f));
    act_inputs.push_back("lo");
    act_inputs.push_back("hi");
    if (fed_max) {
      inputs.push_back("hi");
      graph.SetValueType("hi", FloatTensor({}));
    } else {
      graph.AddInitializer("hi", Tensor::Scalar<float>(0.75f));
    }
  }
  Node& node = graph.AddNode({"act", act, "", act_inputs, {"y"}, {}});
  if (act == "LeakyRelu") node.SetAttribute(Attribute::Float("alpha", 0.3f));
  if (act == "HardSigmoid") node.SetAttribute(Attribute::Float("beta", 0.4f));
  if (act == "Clip" && opset < 11) {
    node.SetAttribute(Attribute::Float("min", -0.5f));
    node.SetAttribute(Attribute::Float("max", 0.75f));
  }
  graph.set_inputs(inputs);
  graph.set_outputs({"y"});
  return model;
}

TEST_CASE("fuse_conv_activation folds the activation into FusedConv", "[optimizer][fusion]") {
  const std::vector<std::pair<std::string, std::vector<float>>> cases{{"Relu", {}},
                                                                      {"Sigmoid", {}},
                                                                      {"Tanh", {}},
                                                                      {"LeakyRelu", {0.3f}},
                                                                      {"HardSigmoid", {0.2f, 0.4f}},
                                                                      {"Clip", {-0.5f, 0.75f}}};
  std::vector<NamedValue> feeds{{"x", Value(RandomTensor({1, 2, 3, 3}, 3))}};
  for (const auto& [act, params] : cases) {
    INFO(act);
    Model model = ConvActivationModel(act);
    OptimizeExtended(model);
    REQUIRE(OpTypes(model.graph()) == Ops{"FusedConv"});
    const Node& fused = *model.graph().Producer("y");
    CHECK(fused.domain() == "com.microsoft");
    CHECK(fused.inputs() == std::vector<std::string>{"x", "W", "B"});
    CHECK(fused.FindAttribute("activation")->s == act);
    CHECK(fused.FindAttribute("kernel_shape")->ints == std::vector<int64_t>{1, 1});
    const Attribute* fused_params = fused.FindAttribute("activation_params");
    CHECK((fused_params == nullptr ? std::vector<float>{} : fused_params->floats) == params);
    const std::string op = act;
    CheckSameOutputs([op] { return ConvActivationModel(op); }, feeds, 1);
  }
  Model old_clip = ConvActivationModel("Clip", 10);
  OptimizeExtended(old_clip);
  REQUIRE(OpTypes(old_clip.graph()) == Ops{"FusedConv"});
  CHECK(old_clip.graph().Producer("y")->FindAttribute("activation_params")->floats ==
        std::vector<float>{-0.5f, 0.75f});

  Model fed_max = ConvActivationModel("Clip", 14, /*fed_max=*/true);
  OptimizeExtended(fed_max);
  CHECK(OpTypes(fed_max.graph()) == Ops{"Conv", "Clip"});
  Model shared = ConvActivationModel("Relu");
  shared.graph().set_outputs({"y", "c"});
  OptimizeExtended(shared);
  CHECK(OpTypes(shared.graph()) == Ops{"Conv", "Relu"});
  Model leaky16 = ConvActivationModel("LeakyRelu", 16);
  OptimizeExtended(leaky16);
  CHECK(OpTypes(leaky16.graph()) == Ops{"Conv", "LeakyRelu"});
}

// act(Gemm(a [2,3], B [3,4], C [4])) with transB unset, alpha 0.5.
Model GemmActivationModel(const std::string& act) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.set_inputs({"a"});
  graph.set_outputs({"y"});
  graph.SetValueType("a", FloatTensor({2, 3}));
  graph.AddInitializer("B", RandomTensor({3, 4}, 1));
  graph.AddInitializer("C", RandomTensor({4}, 2));
  graph.AddNode({"gemm", "Gemm", "", {"a", "B", "C"}, {"g"}, {}})
      .SetAttribute(Attribute::Float("alpha", 0.5f));
  Node& node = graph.AddNode({"act", act, "", {"g"}, {"y"}, {}});
  if (act == "LeakyRelu") node.SetAttribute(Attribute::Float("alpha", 0.2f));
  return model;
}

TEST_CASE("fuse_gemm_activation folds the activation into FusedGemm", "[optimizer][fusion]") {
  Model model = GemmActivationModel("LeakyRelu");
  OptimizeExtended(model);
  REQUIRE(OpTypes(model.graph()) == Ops{"FusedGemm"});
  const Node& fused = *model.graph().Producer("y");
  CHECK(fused.inputs() == std::vector<std::string>{"a", "B", "C"});
  CHECK(fused.FindAttribute("activation")->s == "LeakyRelu");
  CHECK(fused.FindAttribute("activation_alpha")->f == 0.2f);
  CHECK(fused.FindAttribute("alpha")->f == 0.5f);
  std::vector<NamedValue> feeds{{"a", Value(RandomTensor({2, 3}, 3))}};
  for (const char* act : {"LeakyRelu", "Relu", "Sigmoid", "Tanh"}) {
    INFO(act);
    const std::string op = act;
    CheckSameOutputs([op] { return GemmActivationModel(op); }, feeds, 1);
  }
  Model shared = GemmActivationModel("Relu");
  shared.graph().set_outputs({"y", "g"});
  OptimizeExtended(shared);
  CHECK(OpTypes(shared.graph()) == Ops{"Gemm", "Relu"});
  Model not_activation = GemmActivationModel("Exp");
  OptimizeExtended(not_activation);
  CHECK(OpTypes(not_activation.graph()) == Ops{"Gemm", "Exp"});
}

struct MatMulOptions {
  std::vector<int64_t> perm{0, 2, 1};  // of the Transpose on B
  bool scale_a = true;                 // a is Mul(a0, 0.5)
  bool divide_product = true;          // the product is divided by 4
  bool transposed_read_twice = false;  // the Transpose output is also a graph output
  bool fed_divisor = false;            // the divisor is a graph input
};

// Div(MatMul(Mul(a0, 0.5), Transpose(b0)), 4) on a0 [2,3,4], b0 [2,5,4] -> [2,3,5].
Model MatMulModel(const MatMulOptions& options = {}) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  std::vector<std::string> inputs{"a0", "b0"}, outputs{"y"};
  graph.SetValueType("a0", FloatTensor({2, 3, 4}));
  graph.SetValueType("b0", FloatTensor({2, 5, 4}));
  graph.SetValueType("a", FloatTensor({2, 3, 4}));
  graph.SetValueType("b", FloatTensor({2, 4, 5}));
  graph.SetValueType("p", FloatTensor({2, 3, 5}));
  const std::string a = options.scale_a ? "a" : "a0";
  if (options.scale_a) {
    graph.AddInitializer("half", Tensor::FromVector<float>({1}, {0.5f}));
    graph.AddNode({"scale", "Mul", "", {"a0", "half"}, {"a"}, {}});
  }
  graph.AddNode({"transpose", "Transpose", "", {"b0"}, {"b"}, {}})
      .SetAttribute(Attribute::Ints("perm", options.perm));
  const std::string product = options.divide_product ? "p" : "y";
  graph.AddNode({"matmul", "MatMul", "", {a, "b"}, {product}, {}});
  if (options.divide_product) {
    if (options.fed_divisor) {
      inputs.push_back("four");
      graph.SetValueType("four", FloatTensor({}));
    } else {
      graph.AddInitializer("four", Tensor::Scalar<float>(4));
    }
    graph.AddNode({"div", "Div", "", {"p", "four"}, {"y"}, {}});
  }
  if (options.transposed_read_twice) outputs.push_back("b");
  graph.set_inputs(inputs);
  graph.set_outputs(outputs);
  return model;
}

TEST_CASE("fuse_matmul_scale_transpose builds FusedMatMul", "[optimizer][fusion]") {
  Model model = MatMulModel();
  OptimizeExtended(model);
  REQUIRE(OpTypes(model.graph()) == Ops{"FusedMatMul"});
  const Node& fused = *model.graph().Producer("y");
  CHECK(fused.inputs() == std::vector<std::string>{"a0", "b0"});
  CHECK(fused.FindAttribute("alpha")->f == 0.125f);
  CHECK(fused.FindAttribute("transA")->i == 0);
  CHECK(fused.FindAttribute("transB")->i == 1);
  std::vector<NamedValue> feeds{{"a0", Value(RandomTensor({2, 3, 4}, 3))},
                                {"b0", Value(RandomTensor({2, 5, 4}, 4))}};
  CheckSameOutputs([] { return MatMulModel(); }, feeds, 1);

  // A Transpose read elsewhere stays for its other reader; the MatMul still reads past it.
  Model shared = MatMulModel({.transposed_read_twice = true});
  OptimizeExtended(shared);
  CHECK(OpTypes(shared.graph()) == Ops{"Transpose", "FusedMatMul"});
  // A perm that moves the batch axis is not a matrix transpose; the scales still fuse.
  Model batch_perm = MatMulModel({.perm = {1, 0, 2}});
  batch_perm.graph().SetValueType("b", FloatTensor({5, 2, 4}));
  batch_perm.graph().SetValueType("b0", FloatTensor({2, 5, 4}));
  OptimizeExtended(batch_perm);
  REQUIRE(OpTypes(batch_perm.graph()) == Ops{"Transpose", "FusedMatMul"});
  CHECK(batch_perm.graph().Producer("y")->FindAttribute("transB")->i == 0);
  // A divisor that is fed is no constant scale: the Div stays after the fused Transpose.
  Model fed = MatMulModel({.scale_a = false, .fed_divisor = true});
  OptimizeExtended(fed);
  CHECK(OpTypes(fed.graph()) == Ops{"FusedMatMul", "Div"});
  Model plain = MatMulModel({.perm = {1, 0, 2}, .scale_a = false, .divide_product = false});
  OptimizeExtended(plain);
  CHECK(OpTypes(plain.graph()) == Ops{"Transpose", "MatMul"});
}

}  // namespace
}  // namespace ort::test
