// The extended level's Gelu and LayerNormalization fusions: the erf and tanh forms of Gelu into
// Gelu / FastGelu, a bias Add into BiasGelu, the LayerNormalization arithmetic into one node and
// the residual Add into SkipLayerNormalization. Each is checked for the nodes left, for the cases
// that must stay unfused, and for outputs equal to the unfused model's.
#include <cmath>
#include <numbers>

#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

enum class GeluForm { kDivThenHalf, kHalfFirst, kMulThenHalfThenX };

struct GeluOptions {
  GeluForm form = GeluForm::kDivThenHalf;
  bool bias = false;            // x is Add(h, bias) with a 1-D constant bias
  bool erf_read_twice = false;  // the Erf output is also a graph output
  bool fed_divisor = false;     // sqrt(2) comes as a graph input
};

// 0.5 x (1 + erf(x / sqrt 2)) on x [2,3] in one of the orders exporters write.
Model GeluModel(const GeluOptions& options = {}) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  std::vector<std::string> inputs{"h"}, outputs{"y"};
  graph.SetValueType("h", FloatTensor({2, 3}));
  const std::string x = options.bias ? "x" : "h";
  if (options.bias) {
    graph.AddInitializer("bias", Tensor::FromVector<float>({3}, {0.5f, -1, 0.25f}));
    graph.AddNode({"bias_add", "Add", "", {"h", "bias"}, {"x"}, {}});
    graph.SetValueType("x", FloatTensor({2, 3}));
  }
  graph.AddInitializer("one", Tensor::Scalar<float>(1));
  graph.AddInitializer("half", Tensor::Scalar<float>(0.5f));
  const auto sqrt2 = static_cast<float>(std::numbers::sqrt2);
  if (options.form == GeluForm::kMulThenHalfThenX) {
    graph.AddInitializer("inv_sqrt2", Tensor::Scalar<float>(1.0f / sqrt2));
    graph.AddNode({"scale", "Mul", "", {"inv_sqrt2", x}, {"scaled"}, {}});
  } else {
    if (options.fed_divisor) {
      inputs.push_back("sqrt2");
      graph.SetValueType("sqrt2", FloatTensor({}));
    } else {
      graph.AddInitializer("sqrt2", Tensor::Scalar<float>(sqrt2));
    }
    graph.AddNode({"scale", "Div", "", {x, "sqrt2"}, {"scaled"}, {}});
  }
  graph.AddNode({"erf", "Erf", "", {"scaled"}, {"e"}, {}});
  graph.AddNode({"plus_one", "Add", "", {"e", "one"}, {"s"}, {}});
  switch (options.form) {
    case GeluForm::kDivThenHalf:
      graph.AddNode({"times_x", "Mul", "", {x, "s"}, {"p"}, {}});
      graph.AddNode({"times_half", "Mul", "", {"p", "half"}, {"y"}, {}});
      break;
    case GeluForm::kHalfFirst:
      graph.AddNode({"half_x", "Mul", "", {"half", x}, {"hx"}, {}});
      graph.AddNode({"times", "Mul", "", {"hx", "s"}, {"y"}, {}});
      break;
    case GeluForm::kMulThenHalfThenX:
      graph.AddNode({"times_half", "Mul", "", {"s", "half"}, {"p"}, {}});
      graph.AddNode({"times_x", "Mul", "", {"p", x}, {"y"}, {}});
      break;
  }
  if (options.erf_read_twice) outputs.push_back("e");
  graph.set_inputs(inputs);
  graph.set_outputs(outputs);
  return model;
}

std::vector<NamedValue> GeluFeeds() {
  return {{"h", Value(Tensor::FromVector<float>({2, 3}, {-3, -1, -0.25f, 0, 0.5f, 2.5f}))}};
}

TEST_CASE("fuse_gelu fuses the erf forms of Gelu", "[optimizer][fusion]") {
  for (GeluForm form :
       {GeluForm::kDivThenHalf, GeluForm::kHalfFirst, GeluForm::kMulThenHalfThenX}) {
    Model model = GeluModel({form});
    OptimizeExtended(model);
    REQUIRE(OpTypes(model.graph()) == Ops{"Gelu"});
    const Node& gelu = *model.graph().Producer("y");
    CHECK(gelu.domain() == "com.microsoft");
    CHECK(gelu.inputs() == std::vector<std::string>{"h"});
    CHECK(model.opsets().at("com.microsoft") == 1);
    CheckSameOutputs([form] { return GeluModel({form}); }, GeluFeeds(), 1);
  }

  Model shared = GeluModel({.erf_read_twice = true});
  OptimizeExtended(shared);
  CHECK(CountOps(shared.graph(), "Gelu") == 0);
  Model fed = GeluModel({.fed_divisor = true});
  OptimizeExtended(fed);
  CHECK(CountOps(fed.graph(), "Gelu") == 0);
  Model disabled = GeluModel();
  OptimizeExtended(disabled, {"fuse_gelu"});
  CHECK(OpTypes(disabled.graph()).size() == 5);
}

TEST_CASE("fuse_bias_gelu takes a 1-D bias Add into BiasGelu", "[optimizer][fusion]") {
  Model model = GeluModel({.bias = true});
  OptimizeExtended(model);
  REQUIRE(OpTypes(model.graph()) == Ops{"BiasGelu"});
  CHECK(model.graph().Producer("y")->inputs() == std::vector<std::string>{"h", "bias"});
  CheckSameOutputs([] { return GeluModel({.bias = true}); }, GeluFeeds(), 1);

  // The biased value is also an output: the Add stays, Gelu still fuses.
  Model shared = GeluModel({.bias = true});
  shared.graph().set_outputs({"y", "x"});
  OptimizeExtended(shared);
  CHECK(OpTypes(shared.graph()) == Ops{"Add", "Gelu"});
  // A bias that is not 1-D along the last axis: [2,1] broadcasts the other way.
  Model column = GeluModel({.bias = true});
  column.graph().AddInitializer("bias", Tensor::FromVector<float>({2, 1}, {1, 2}));
  OptimizeExtended(column);
  CHECK(OpTypes(column.graph()) == Ops{"Add", "Gelu"});
}

enum class FastGeluForm {
  kPow,           // x^3 as Pow(x, 3)
  kMulCube,       // x^3 as x * (x * x), torch's approximate='tanh'
  kSquareInside,  // sqrt(2/pi) x (1 + 0.044715 x x)
};

// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) in one of the forms exporters write.
Model FastGeluModel(FastGeluForm form, bool cube_read_twice = false) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs(cube_read_twice ? std::vector<std::string>{"y", "c"}
                                    : std::vector<std::string>{"y"});
  graph.SetValueType("x", FloatTensor({2, 3}));
  graph.AddInitializer("one", Tensor::Scalar<float>(1));
  graph.AddInitializer("half", Tensor::Scalar<float>(0.5f));
  graph.AddInitializer("k", Tensor::Scalar<float>(0.044715f));
  graph.AddInitializer("root", Tensor::Scalar<float>(0.7978845834732056f));
  if (form != FastGeluForm::kSquareInside) {
    if (form == FastGeluForm::kPow) {
      graph.AddInitializer("three", Tensor::Scalar<float>(3));
      graph.AddNode({"pow", "Pow", "", {"x", "three"}, {"c"}, {}});
    } else {
      graph.AddNode({"square", "Mul", "", {"x", "x"}, {"xx"}, {}});
      graph.AddNode({"cube", "Mul", "", {"x", "xx"}, {"c"}, {}});
    }
    graph.AddNode({"kc", "Mul", "", {"k", "c"}, {"kc"}, {}});
    graph.AddNode({"inner", "Add", "", {"x", "kc"}, {"inner"}, {}});
    graph.AddNode({"arg", "Mul", "", {"inner", "root"}, {"arg"}, {}});
  } else {
    graph.AddNode({"kx", "Mul", "", {"x", "k"}, {"kx"}, {}});
    graph.AddNode({"kxx", "Mul", "", {"kx", "x"}, {"c"}, {}});
    graph.AddNode({"poly", "Add", "", {"c", "one"}, {"poly"}, {}});
    graph.AddNode({"rx", "Mul", "", {"x", "root"}, {"rx"}, {}});
    graph.AddNode({"arg", "Mul", "", {"poly", "rx"}, {"arg"}, {}});
  }
  graph.AddNode({"tanh", "Tanh", "", {"arg"}, {"t"}, {}});
  graph.AddNode({"plus_one", "Add", "", {"t", "one"}, {"s"}, {}});
  graph.AddNode({"half_x", "Mul", "", {"x", "half"}, {"hx"}, {}});
  graph.AddNode({"times", "Mul", "", {"hx", "s"}, {"y"}, {}});
  return model;
}

TEST_CASE("fuse_fast_gelu fuses the tanh forms of Gelu", "[optimizer][fusion]") {
  for (FastGeluForm form :
       {FastGeluForm::kPow, FastGeluForm::kMulCube, FastGeluForm::kSquareInside}) {
    Model model = FastGeluModel(form);
    OptimizeExtended(model);
    REQUIRE(OpTypes(model.graph()) == Ops{"FastGelu"});
    CHECK(model.graph().Producer("y")->inputs() == std::vector<std::string>{"x"});
    std::vector<NamedValue> feeds{
        {"x", Value(Tensor::FromVector<float>({2, 3}, {-3, -1, -0.25f, 0, 0.5f, 2.5f}))}};
    CheckSameOutputs([form] { return FastGeluModel(form); }, feeds, 1);
    Model shared = FastGeluModel(form, /*cube_read_twice=*/true);
    OptimizeExtended(shared);
    CHECK(CountOps(shared.graph(), "FastGelu") == 0);
  }
}

struct LayerNormOptions {
  bool duplicated_sub = false;  // older PyTorch: x - mean computed twice
  int64_t axis = -1;            // the axis both ReduceMeans average over
  bool centred_read_twice = false;
  bool computed_gamma = false;            // gamma is computed from a feed, neither constant nor fed
  bool residual = false;                  // x = Add(Add(h, bias), skip), the encoder's residual
  bool bias_first = false;                // with `residual`: the bias Add reads the bias as input 0
  std::vector<int64_t> dims = {2, 3, 4};  // x's shape (the last, 4, is normalized)
};

// LayerNormalization of x [2,3,4] over the last axis written out as ReduceMean ... Add.
Model LayerNormModel(const LayerNormOptions& options = {}) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  std::vector<std::string> outputs{"y"};
  graph.SetValueType("x", FloatTensor(options.dims));
  if (options.residual) {
    graph.set_inputs({"h", "skip"});
    graph.SetValueType("h", FloatTensor(options.dims));
    graph.SetValueType("skip", FloatTensor(options.dims));
    graph.SetValueType("hb", FloatTensor(options.dims));
    graph.AddInitializer("bias", RandomTensor({4}, 7));
    graph.AddNode({"bias_add",
                   "Add",
                   "",
                   options.bias_first ? std::vector<std::string>{"bias", "h"}
                                      : std::vector<std::string>{"h", "bias"},
                   {"hb"},
                   {}});
    graph.AddNode({"residual", "Add", "", {"hb", "skip"}, {"x"}, {}});
  } else {
    graph.set_inputs({"x"});
  }
  graph.AddInitializer("two", Tensor::Scalar<float>(2));
  graph.AddInitializer("eps", Tensor::Scalar<float>(1e-3f));
  graph.AddInitializer("beta", RandomTensor({4}, 2));
  if (options.computed_gamma) {
    graph.set_inputs({"x", "w"});
    graph.SetValueType("w", FloatTensor({4}));
    graph.AddNode({"relu", "Relu", "", {"w"}, {"gamma"}, {}});
  } else {
    graph.AddInitializer("gamma", RandomTensor({4}, 1));
  }
  graph.SetValueType("gamma", FloatTensor({4}));
  auto mean = [&](const char* name, std::string in, std::string out) {
    graph.AddNode({name, "ReduceMean", "", {std::move(in)}, {std::move(out)}, {}})
        .SetAttribute(Attribute::Ints("axes", {options.axis}));
  };
  mean("mean", "x", "m");
  graph.AddNode({"sub", "Sub", "", {"x", "m"}, {"d"}, {}});
  std::string numerator = "d";
  if (options.duplicated_sub) {
    graph.AddNode({"sub2", "Sub", "", {"x", "m"}, {"d2"}, {}});
    numerator = "d2";
  }
  graph.AddNode({"pow", "Pow", "", {"d", "two"}, {"sq"}, {}});
  mean("variance", "sq", "var");
  graph.AddNode({"add_eps", "Add", "", {"var", "eps"}, {"ve"}, {}});
  graph.AddNode({"sqrt", "Sqrt", "", {"ve"}, {"std"}, {}});
  graph.AddNode({"div", "Div", "", {numerator, "std"}, {"n"}, {}});
  graph.AddNode({"scale", "Mul", "", {"gamma", "n"}, {"ng"}, {}});
  graph.AddNode({"shift", "Add", "", {"ng", "beta"}, {"y"}, {}});
  if (options.centred_read_twice) outputs.push_back("d");
  graph.set_outputs(outputs);
  return model;
}

TEST_CASE("fuse_layer_norm fuses the LayerNormalization arithmetic", "[optimizer][fusion]") {
  for (bool duplicated : {false, true}) {
    Model model = LayerNormModel({.duplicated_sub = duplicated});
    OptimizeExtended(model);
    REQUIRE(OpTypes(model.graph()) == Ops{"LayerNormalization"});
    const Node& norm = *model.graph().Producer("y");
    CHECK(norm.domain().empty());
    CHECK(norm.inputs() == std::vector<std::string>{"x", "gamma", "beta"});
    CHECK(norm.FindAttribute("axis")->i == -1);
    CHECK(norm.FindAttribute("epsilon")->f == 1e-3f);
    std::vector<NamedValue> feeds{{"x", Value(RandomTensor({2, 3, 4}, 5))}};
    CheckSameOutputs([duplicated] { return LayerNormModel({.duplicated_sub = duplicated}); }, feeds,
                     1);
  }
  Model middle_axis = LayerNormModel({.axis = 1});
  OptimizeExtended(middle_axis);
  CHECK(CountOps(middle_axis.graph(), "LayerNormalization") == 0);
  Model last_axis = LayerNormModel({.axis = 2});
  OptimizeExtended(last_axis);
  CHECK(CountOps(last_axis.graph(), "LayerNormalization") == 1);
  Model shared = LayerNormModel({.centred_read_twice = true});
  OptimizeExtended(shared);
  CHECK(CountOps(shared.graph(), "LayerNormalization") == 0);
  Model computed = LayerNormModel({.computed_gamma = true});
  OptimizeExtended(computed);
  CHECK(CountOps(computed.graph(), "LayerNormalization") == 0);
}

TEST_CASE("fuse_skip_layer_norm takes the residual and bias Adds in", "[optimizer][fusion]") {
  Model model = LayerNormModel({.residual = true});
  OptimizeExtended(model);
  REQUIRE(OpTypes(model.graph()) == Ops{"SkipLayerNormalization"});
  const Node& skip = *model.graph().Producer("y");
  CHECK(skip.domain() == "com.microsoft");
  CHECK(skip.inputs() == std::vector<std::string>{"h", "skip", "gamma", "beta", "bias"});
  CHECK(skip.FindAttribute("epsilon")->f == 1e-3f);
  std::vector<NamedValue> feeds{{"h", Value(RandomTensor({2, 3, 4}, 5))},
                                {"skip", Value(RandomTensor({2, 3, 4}, 6))}};
  CheckSameOutputs([] { return LayerNormModel({.residual = true}); }, feeds, 1);

  // PyTorch writes Add(bias, h): onnxruntime takes the bias only as the Add's second input, so
  // that Add stays and the residual Add alone is fused.
  Model bias_first = LayerNormModel({.residual = true, .bias_first = true});
  OptimizeExtended(bias_first);
  CHECK(OpTypes(bias_first.graph()) == Ops{"Add", "SkipLayerNormalization"});
  CheckSameOutputs([] { return LayerNormModel({.residual = true, .bias_first = true}); }, feeds, 2);

  // The residual sum is also an output (pre-norm transformers carry it to the next residual):
  // it comes out of SkipLayerNormalization as input_skip_bias_sum.
  for (const std::vector<std::string>& outputs :
       {std::vector<std::string>{"y", "x"}, std::vector<std::string>{"x", "y"}}) {
    const auto build = [&outputs] {
      Model shared = LayerNormModel({.residual = true});
      shared.graph().set_outputs(outputs);
      return shared;
    };
    Model shared = build();
    OptimizeExtended(shared);
    REQUIRE(OpTypes(shared.graph()) == Ops{"SkipLayerNormalization"});
    CHECK(shared.graph().Producer("y")->outputs() == std::vector<std::string>{"y", "", "", "x"});
    CheckSameOutputs(build, feeds, 1);
  }
  // [B, H, W, C] residuals (Swin's) fuse in a session only: onnxruntime's kernel takes 3-D.
  const LayerNormOptions four_d{.residual = true, .dims = {2, 3, 2, 4}};
  Model windows = LayerNormModel(four_d);
  OptimizeExtended(windows);
  CHECK(OpTypes(windows.graph()) == Ops{"SkipLayerNormalization"});
  const std::vector<NamedValue> four_d_feeds{{"h", Value(RandomTensor({2, 3, 2, 4}, 5))},
                                             {"skip", Value(RandomTensor({2, 3, 2, 4}, 6))}};
  CheckSameOutputs([&four_d] { return LayerNormModel(four_d); }, four_d_feeds, 1);
  Model unfused = LayerNormModel(four_d);
  OptimizeForCpu(unfused, OptimizationLevel::kExtended, {"fuse_skip_layer_norm_any_rank"});
  CHECK(OpTypes(unfused.graph()) == Ops{"Add", "Add", "LayerNormalization"});

  // A skip that broadcasts ([4] onto [2,3,4]) is not a residual of the same shape.
  Model broadcast = LayerNormModel({.residual = true});
  broadcast.graph().SetValueType("skip", FloatTensor({4}));
  OptimizeExtended(broadcast);
  CHECK(CountOps(broadcast.graph(), "SkipLayerNormalization") == 0);
}

// Dynamic sequence lengths leave MatMul outputs without a shape; the constant weight still tells
// the last axis, as in BERT's intermediate dense layer.
Model MatMulBiasGeluModel(int64_t bias_size) {
  Model model = MakeModel(14);
  model.opsets()["com.microsoft"] = 1;
  Graph& graph = model.graph();
  graph.set_inputs({"a"});
  graph.set_outputs({"y"});
  graph.SetValueType("a", ValueType::Tensor(DataType::kFloat));
  graph.SetValueType("m", ValueType::Tensor(DataType::kFloat));
  graph.AddInitializer("w", RandomTensor({3, 4}, 7));
  graph.AddInitializer("bias", RandomTensor({bias_size}, 8));
  graph.AddNode({"matmul", "MatMul", "", {"a", "w"}, {"m"}, {}});
  graph.AddNode({"add", "Add", "", {"bias", "m"}, {"x"}, {}});
  graph.AddNode({"gelu", "Gelu", "com.microsoft", {"x"}, {"y"}, {}});
  return model;
}

TEST_CASE("fuse_bias_gelu reads the last axis off a MatMul's constant weight",
          "[optimizer][fusion]") {
  Model model = MatMulBiasGeluModel(4);
  OptimizeExtended(model);
  REQUIRE(OpTypes(model.graph()) == Ops{"MatMul", "BiasGelu"});
  CHECK(model.graph().Producer("y")->inputs() == std::vector<std::string>{"m", "bias"});
  const std::vector<NamedValue> feeds{{"a", Value(RandomTensor({2, 3}, 9))}};
  CheckSameOutputs([] { return MatMulBiasGeluModel(4); }, feeds, 2);

  // A one-element bias broadcasts over the 4 columns: not BiasGelu's bias.
  Model broadcast = MatMulBiasGeluModel(1);
  OptimizeExtended(broadcast);
  CHECK(CountOps(broadcast.graph(), "BiasGelu") == 0);
}

}  // namespace
}  // namespace ort::test
