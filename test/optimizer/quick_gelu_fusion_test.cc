// The extended level's SiLU / QuickGELU fusion: x * Sigmoid(alpha * x) into com.microsoft
// QuickGelu, checked against hand-derived outputs, and the look-alikes that must stay unfused.
#include <cmath>
#include <optional>

#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

struct QuickGeluOptions {
  std::optional<float> alpha = std::nullopt;  // Sigmoid(Mul(x, alpha)); x alone without
  bool alpha_first = false;                   // Mul(alpha, x)
  bool sigmoid_first = false;                 // Mul(Sigmoid(..), x)
  bool gate_other = false;                    // Mul(z, Sigmoid(x)): a gate, not SiLU
  bool sigmoid_output = false;                // the Sigmoid is a graph output too
};

Model QuickGeluModel(const QuickGeluOptions& options = {}) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({3}));
  graph.SetValueType("z", FloatTensor({3}));
  std::string gate_input = "x";
  if (options.alpha) {
    graph.AddInitializer("alpha", Tensor::Scalar<float>(*options.alpha));
    graph.AddNode({"scale",
                   "Mul",
                   "",
                   options.alpha_first ? std::vector<std::string>{"alpha", "x"}
                                       : std::vector<std::string>{"x", "alpha"},
                   {"scaled"},
                   {}});
    gate_input = "scaled";
  }
  graph.AddNode({"sigmoid", "Sigmoid", "", {gate_input}, {"gate"}, {}});
  const std::string other = options.gate_other ? "z" : "x";
  graph.AddNode({"product",
                 "Mul",
                 "",
                 options.sigmoid_first ? std::vector<std::string>{"gate", other}
                                       : std::vector<std::string>{other, "gate"},
                 {"y"},
                 {}});
  graph.set_inputs({"x", "z"});
  std::vector<std::string> outputs{"y"};
  if (options.sigmoid_output) outputs.push_back("gate");
  graph.set_outputs(outputs);
  graph.ResolveOuterScope();
  return model;
}

}  // namespace

TEST_CASE("fuse_quick_gelu fuses SiLU and QuickGELU into QuickGelu", "[optimizer][fusion]") {
  // sigmoid(ln 3) = 3/4 and sigmoid(-ln 3) = 1/4.
  const float ln3 = std::log(3.0f);
  const Tensor z = Tensor::FromVector<float>({3}, {0, 0, 0});
  const std::vector<std::pair<std::string, QuickGeluOptions>> forms{
      {"x * Sigmoid(x)", {}},
      {"Sigmoid(x) * x", {.sigmoid_first = true}},
      {"x * Sigmoid(x * 2)", {.alpha = 2.0f}},
      {"Sigmoid(2 * x) * x", {.alpha = 2.0f, .alpha_first = true, .sigmoid_first = true}},
  };
  for (const auto& [name, options] : forms) {
    SECTION(name) {
      Model model = QuickGeluModel(options);
      OptimizeExtended(model);
      REQUIRE(OpTypes(model.graph()) == Ops{"QuickGelu"});
      const Node& fused = *model.graph().Producer("y");
      CHECK(fused.domain() == "com.microsoft");
      CHECK(fused.inputs() == std::vector<std::string>{"x"});
      const float alpha = options.alpha.value_or(1.0f);
      CHECK(fused.FindAttribute("alpha")->f == alpha);
      // x chosen so that alpha * x is 0, ln 3, -ln 3.
      const Tensor x = Tensor::FromVector<float>({3}, {0, ln3 / alpha, -ln3 / alpha});
      const std::vector<NamedValue> feeds{{"x", Value(x)}, {"z", Value(z)}};
      const auto [output, executed] =
          RunOnCpu(QuickGeluModel(options), OptimizationLevel::kExtended, feeds);
      CHECK(executed == Ops{"QuickGelu"});
      CheckClose(output, {0.0f, 0.75f * ln3 / alpha, -0.25f * ln3 / alpha}, 1e-5, 1e-5);
    }
  }
}

TEST_CASE("fuse_quick_gelu leaves gates of other tensors and shared sigmoids",
          "[optimizer][fusion]") {
  for (const QuickGeluOptions& options :
       {QuickGeluOptions{.gate_other = true}, QuickGeluOptions{.sigmoid_output = true}}) {
    Model model = QuickGeluModel(options);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "QuickGelu") == 0);
  }
}

}  // namespace ort::test
