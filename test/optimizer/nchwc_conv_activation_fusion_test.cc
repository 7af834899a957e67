// Rule fuse_nchwc_conv_activation: sessions fold the SiLU (as QuickGelu) and HardSwish that alone
// read an NCHWc Conv's output into the Conv; models saved for onnxruntime keep them apart.
#include "lib/onnx/model_loader.h"
#include "lib/optimizer/graph_optimizer.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr std::string_view kNchwc = "com.microsoft.nchwc";

void AddConv(Graph& graph, const std::string& name, const std::string& x, int64_t in, int64_t out,
             int64_t kernel, const std::string& y, uint32_t seed) {
  graph.AddInitializer(name + "_w", RandomTensor({out, in, kernel, kernel}, seed, -0.5f, 0.5f));
  graph.AddInitializer(name + "_b", RandomTensor({out}, seed + 1));
  Node& conv = graph.AddNode({name, "Conv", "", {x, name + "_w", name + "_b"}, {y}, {}});
  const int64_t pad = kernel / 2;
  conv.SetAttribute(Attribute::Ints("kernel_shape", {kernel, kernel}));
  conv.SetAttribute(Attribute::Ints("pads", {pad, pad, pad, pad}));
}

// conv1 -> SiLU -> conv2 -> HardSwish -> conv3 -> SiLU, whose conv3 output a Relu also reads.
Model ActivatedConvModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({2, 16, 7, 9}));
  AddConv(graph, "conv1", "x", 16, 32, 3, "c1", 1);
  graph.AddNode({"sigmoid1", "Sigmoid", "", {"c1"}, {"g1"}, {}});
  graph.AddNode({"silu1", "Mul", "", {"c1", "g1"}, {"a1"}, {}});
  AddConv(graph, "conv2", "a1", 32, 32, 1, "c2", 3);
  graph.AddNode({"hard_swish", "HardSwish", "", {"c2"}, {"a2"}, {}});
  AddConv(graph, "conv3", "a2", 32, 16, 3, "c3", 5);
  graph.AddNode({"sigmoid3", "Sigmoid", "", {"c3"}, {"g3"}, {}});
  graph.AddNode({"silu3", "Mul", "", {"c3", "g3"}, {"a3"}, {}});
  graph.AddNode({"relu", "Relu", "", {"c3"}, {"r3"}, {}});
  graph.AddNode({"sum", "Add", "", {"a3", "r3"}, {"y"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

std::string ActivationOf(const Graph& graph, const std::string& value) {
  const Node* node = graph.Producer(value);
  if (node == nullptr || node->domain() != kNchwc) return "not an nchwc node";
  const Attribute* activation = node->FindAttribute("activation");
  return activation != nullptr ? activation->s : "";
}

}  // namespace

TEST_CASE("fuse_nchwc_conv_activation gives NCHWc convolutions their SiLU and HardSwish",
          "[optimizer][nchwc]") {
  Model model = ActivatedConvModel();
  model.graph().ResolveOuterScope();
  InferModelTypes(model);
  OptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountOps(graph, "HardSwish") == 0);
  // conv3's output also feeds the Relu, so its SiLU stays a node of its own.
  CHECK(CountOps(graph, "QuickGelu") == 1);
  size_t quick_gelu = 0, hard_swish = 0;
  for (const Node* node : graph.Nodes()) {
    if (node->domain() != kNchwc || node->op_type() != "Conv") continue;
    const Attribute* activation = node->FindAttribute("activation");
    if (activation == nullptr) continue;
    if (activation->s == "QuickGelu") {
      ++quick_gelu;
      CHECK(node->FindAttribute("activation_params")->floats == std::vector<float>{1.0f});
    }
    hard_swish += activation->s == "HardSwish" ? 1 : 0;
  }
  CHECK(quick_gelu == 1);
  CHECK(hard_swish == 1);
  CHECK(ActivationOf(graph, graph.Producer("y")->inputs()[0]) != "QuickGelu");

  std::vector<NamedValue> feeds{{"x", Value(RandomTensor({2, 16, 7, 9}, 11))}};
  const CpuRun plain = RunOnCpu(ActivatedConvModel(), OptimizationLevel::kDisable, feeds);
  const CpuRun fused = RunOnCpu(ActivatedConvModel(), OptimizationLevel::kAll, feeds);
  CheckClose(fused.output, plain.output, 1e-4, 1e-4);
}

TEST_CASE("Models saved at level all keep SiLU and HardSwish apart from their Conv",
          "[optimizer][nchwc][record]") {
  CHECK(IsSessionOnlyPass("session_nchwc_fusions"));
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kAll;
  InferenceSession session(options);
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(std::make_unique<Model>(ActivatedConvModel())).ok());
  REQUIRE(session.OptimizeForSaving().ok());
  const Graph& graph = session.model().graph();
  CHECK(CountOps(graph, "HardSwish") == 1);
  for (const Node* node : graph.Nodes()) {
    const Attribute* activation = node->FindAttribute("activation");
    if (activation == nullptr) continue;
    CHECK(activation->s != "QuickGelu");
    CHECK(activation->s != "HardSwish");
  }
}

}  // namespace ort::test
