// The extended level's RMS norm fusion: the arithmetic of T5's and LLaMA's RMSNorm into
// SimplifiedLayerNormalization, in the forms exporters write, checked against hand-derived
// outputs; and the look-alikes that must stay unfused.
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

enum class RmsForm {
  kPowDivideOneMul,  // x * Div(1, Sqrt(mean(Pow(x, 2)) + eps)) * gamma (torch.rsqrt)
  kMulSquareDivide,  // x / Sqrt(mean(x * x) + eps) * gamma
  kReciprocal,       // Reciprocal(Sqrt(..)) * x * gamma
};

struct RmsOptions {
  bool residual = false;  // x = Add(h, skip), the sum also read by a later node
  RmsForm form = RmsForm::kPowDivideOneMul;
  int64_t opset = 14;        // 18 gives ReduceMean its axes as an input
  float exponent = 2.0f;     // anything else is no RMS norm
  int64_t mean_axis = -1;    // the norms average over the last axis only
  int64_t gamma_length = 3;  // must be x's last dimension
};

// x [2,3] through an RMS norm with eps 1 and gamma [1, 2, 3].
Model RmsNormModel(const RmsOptions& options = {}) {
  Model model = MakeModel(options.opset);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({2, 3}));
  std::vector<std::string> outputs{"y"};
  if (options.residual) {
    graph.SetValueType("h", FloatTensor({1, 2, 3}));
    graph.SetValueType("skip", FloatTensor({1, 2, 3}));
    graph.SetValueType("x", FloatTensor({1, 2, 3}));
    graph.AddNode({"residual", "Add", "", {"h", "skip"}, {"x"}, {}});
    graph.AddNode({"next_residual", "Neg", "", {"x"}, {"carried"}, {}});
    outputs.push_back("carried");
  }
  std::vector<float> gamma(static_cast<size_t>(options.gamma_length));
  for (size_t i = 0; i < gamma.size(); ++i) gamma[i] = static_cast<float>(i + 1);
  graph.AddInitializer("gamma", Tensor::FromVector<float>({options.gamma_length}, gamma));
  graph.AddInitializer("epsilon", Tensor::Scalar<float>(1.0f));
  graph.AddInitializer("one", Tensor::Scalar<float>(1.0f));
  graph.AddInitializer("exponent", Tensor::Scalar<float>(options.exponent));
  if (options.form == RmsForm::kMulSquareDivide) {
    graph.AddNode({"square", "Mul", "", {"x", "x"}, {"squared"}, {}});
  } else {
    graph.AddNode({"square", "Pow", "", {"x", "exponent"}, {"squared"}, {}});
  }
  Node& mean = graph.AddNode({"mean", "ReduceMean", "", {"squared"}, {"mean_square"}, {}});
  if (options.opset >= 18) {
    graph.AddInitializer("axes", Tensor::FromVector<int64_t>({1}, {options.mean_axis}));
    graph.SetNodeInput(mean, 1, "axes");
  } else {
    mean.SetAttribute(Attribute::Ints("axes", {options.mean_axis}));
  }
  graph.AddNode({"add_epsilon", "Add", "", {"mean_square", "epsilon"}, {"variance"}, {}});
  graph.AddNode({"sqrt", "Sqrt", "", {"variance"}, {"rms"}, {}});
  switch (options.form) {
    case RmsForm::kPowDivideOneMul:
      graph.AddNode({"inverse", "Div", "", {"one", "rms"}, {"inverse_rms"}, {}});
      graph.AddNode({"normalize", "Mul", "", {"x", "inverse_rms"}, {"normalized"}, {}});
      break;
    case RmsForm::kMulSquareDivide:
      graph.AddNode({"normalize", "Div", "", {"x", "rms"}, {"normalized"}, {}});
      break;
    case RmsForm::kReciprocal:
      graph.AddNode({"inverse", "Reciprocal", "", {"rms"}, {"inverse_rms"}, {}});
      graph.AddNode({"normalize", "Mul", "", {"inverse_rms", "x"}, {"normalized"}, {}});
      break;
  }
  graph.AddNode({"scale", "Mul", "", {"gamma", "normalized"}, {"y"}, {}});
  graph.set_inputs(options.residual ? std::vector<std::string>{"h", "skip"}
                                    : std::vector<std::string>{"x"});
  graph.set_outputs(outputs);
  graph.ResolveOuterScope();
  return model;
}

}  // namespace

TEST_CASE("fuse_rms_norm fuses the RMS norm forms into SimplifiedLayerNormalization",
          "[optimizer][fusion]") {
  // Rows [1, 2, 2] and [0, 0, 3] both have mean square 3: with eps 1 each is divided by 2.
  const std::vector<NamedValue> feeds{
      {"x", Value(Tensor::FromVector<float>({2, 3}, {1, 2, 2, 0, 0, 3}))}};
  const std::vector<float> expected{0.5f, 2.0f, 3.0f, 0.0f, 0.0f, 4.5f};
  const std::vector<std::pair<std::string, RmsOptions>> forms{
      {"x * Div(1, rms)", {}},
      {"x / rms of Mul(x, x)", {.form = RmsForm::kMulSquareDivide}},
      {"Reciprocal(rms) * x", {.form = RmsForm::kReciprocal}},
      {"opset 18, axes as input", {.opset = 18}},
  };
  for (const auto& [name, options] : forms) {
    SECTION(name) {
      Model model = RmsNormModel(options);
      OptimizeExtended(model);
      CHECK(OpTypes(model.graph()) == Ops{"SimplifiedLayerNormalization"});
      const Node& norm = *model.graph().Producer("y");
      CHECK(norm.FindAttribute("epsilon")->f == 1.0f);
      CHECK(norm.FindAttribute("axis")->i == -1);
      const auto [fused, executed] =
          RunOnCpu(RmsNormModel(options), OptimizationLevel::kExtended, feeds);
      CHECK(executed == Ops{"SimplifiedLayerNormalization"});
      CheckClose(fused, expected, 1e-6, 1e-6);
      const auto [plain, plain_executed] =
          RunOnCpu(RmsNormModel(options), OptimizationLevel::kDisable, feeds);
      CheckClose(plain, expected, 1e-6, 1e-6);
    }
  }
}

TEST_CASE("fuse_skip_layer_norm takes a residual Add into SkipSimplifiedLayerNormalization",
          "[optimizer][fusion]") {
  Model model = RmsNormModel({.residual = true});
  OptimizeExtended(model);
  REQUIRE(OpTypes(model.graph()) == Ops{"SkipSimplifiedLayerNormalization", "Neg"});
  const Node& skip = *model.graph().Producer("y");
  CHECK(skip.domain() == "com.microsoft");
  CHECK(skip.inputs() == std::vector<std::string>{"h", "skip", "gamma"});
  CHECK(skip.outputs() == std::vector<std::string>{"y", "", "", "x"});
  // h + skip is [1, 2, 2] and [0, 0, 3]: the rows of the hand-derived case above.
  const std::vector<NamedValue> feeds{
      {"h", Value(Tensor::FromVector<float>({1, 2, 3}, {1, 1, 1, 0, 0, 1}))},
      {"skip", Value(Tensor::FromVector<float>({1, 2, 3}, {0, 1, 1, 0, 0, 2}))}};
  const auto [fused, executed] =
      RunOnCpu(RmsNormModel({.residual = true}), OptimizationLevel::kExtended, feeds);
  CHECK(executed == Ops{"SkipSimplifiedLayerNormalization", "Neg"});
  CheckClose(fused, {0.5f, 2.0f, 3.0f, 0.0f, 0.0f, 4.5f}, 1e-6, 1e-6);
}

TEST_CASE("fuse_rms_norm leaves look-alikes", "[optimizer][fusion]") {
  for (const RmsOptions& options :
       {RmsOptions{.exponent = 3.0f}, RmsOptions{.mean_axis = 0}, RmsOptions{.gamma_length = 1}}) {
    Model model = RmsNormModel(options);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "SimplifiedLayerNormalization") == 0);
  }
  Model disabled = RmsNormModel();
  OptimizeExtended(disabled, {"fuse_rms_norm"});
  CHECK(CountOps(disabled.graph(), "SimplifiedLayerNormalization") == 0);
}

}  // namespace ort::test
