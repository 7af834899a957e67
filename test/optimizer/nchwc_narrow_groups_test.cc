// Rule nchwc_narrow_groups: sessions run grouped convolutions whose groups do not fill whole
// blocks (RegNet's odd counts of 24 channels, ResNeXt's 4) inside the NCHWc layout; models saved
// for onnxruntime keep them as plain Conv between reorders.
#include "lib/common/cpu_info.h"
#include "lib/onnx/model_loader.h"
#include "lib/optimizer/graph_optimizer.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr std::string_view kNchwc = "com.microsoft.nchwc";

void AddConv(Graph& graph, const std::string& name, const std::string& x, int64_t channels,
             int64_t kernel, int64_t group, int64_t stride, const std::string& y, uint32_t seed) {
  graph.AddInitializer(
      name + "_w", RandomTensor({channels, channels / group, kernel, kernel}, seed, -0.3f, 0.3f));
  graph.AddInitializer(name + "_b", RandomTensor({channels}, seed + 1));
  Node& conv = graph.AddNode({name, "Conv", "", {x, name + "_w", name + "_b"}, {y}, {}});
  const int64_t pad = kernel / 2;
  conv.SetAttribute(Attribute::Ints("kernel_shape", {kernel, kernel}));
  conv.SetAttribute(Attribute::Ints("pads", {pad, pad, pad, pad}));
  conv.SetAttribute(Attribute::Ints("strides", {stride, stride}));
  if (group > 1) conv.SetAttribute(Attribute::Int("group", group));
}

// 1x1 -> Relu -> grouped 3x3 (stride 2) -> Relu -> 1x1, and a second grouped 3x3 whose output is
// also a graph output (so it is reordered back as well).
Model NarrowGroupModel(int64_t groups, int64_t group_channels) {
  const int64_t channels = groups * group_channels;
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({2, channels, 11, 10}));
  AddConv(graph, "a", "x", channels, 1, 1, 1, "a_out", 1);
  graph.AddNode({"relu_a", "Relu", "", {"a_out"}, {"a_relu"}, {}});
  AddConv(graph, "b", "a_relu", channels, 3, groups, 2, "b_out", 3);
  graph.AddNode({"relu_b", "Relu", "", {"b_out"}, {"b_relu"}, {}});
  AddConv(graph, "c", "b_relu", channels, 1, 1, 1, "c_out", 5);
  AddConv(graph, "d", "c_out", channels, 3, groups, 1, "y2", 7);
  AddConv(graph, "e", "y2", channels, 1, 1, 1, "y", 9);
  graph.set_inputs({"x"});
  graph.set_outputs({"y", "y2"});
  return model;
}

size_t NarrowNchwcConvs(const Graph& graph) {
  size_t count = 0;
  for (const Node* node : graph.Nodes()) {
    const Attribute* group = node->FindAttribute("group");
    count += node->domain() == kNchwc && node->op_type() == "Conv" && group != nullptr &&
             group->i > 1 && group->i < 100;
  }
  return count;
}

}  // namespace

TEST_CASE("nchwc_narrow_groups runs narrow groups blocked and matches the plain graph",
          "[optimizer][nchwc]") {
  const int64_t block = NchwcBlockSize();
  // 3 x 24 (odd, no merge at B = 16), 8 x 4 (four groups a block at B = 16), 5 x 12.
  for (const auto& [groups, group_channels] :
       {std::pair<int64_t, int64_t>{3, 24}, {8, 4}, {5, 12}}) {
    INFO("groups " << groups << " x " << group_channels << " block " << block);
    Model model = NarrowGroupModel(groups, group_channels);
    model.graph().ResolveOuterScope();
    InferModelTypes(model);
    OptimizeAll(model);
    if (block == 16) {
      CHECK(NarrowNchwcConvs(model.graph()) == 2);
      CHECK(CountOps(model.graph(), "FusedConv") == 0);
    }
    std::vector<NamedValue> feeds{
        {"x", Value(RandomTensor({2, groups * group_channels, 11, 10}, 11))}};
    const CpuRun plain =
        RunOnCpu(NarrowGroupModel(groups, group_channels), OptimizationLevel::kDisable, feeds);
    const CpuRun blocked =
        RunOnCpu(NarrowGroupModel(groups, group_channels), OptimizationLevel::kAll, feeds);
    CheckClose(blocked.output, plain.output, 1e-4, 1e-4);
  }
}

TEST_CASE("Models saved at level all keep narrow groups as plain Conv",
          "[optimizer][nchwc][record]") {
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kAll;
  InferenceSession session(options);
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(std::make_unique<Model>(NarrowGroupModel(3, 24))).ok());
  REQUIRE(session.OptimizeForSaving().ok());
  for (const Node* node : session.model().graph().Nodes()) {
    if (node->domain() != kNchwc || node->op_type() != "Conv") continue;
    const Attribute* group = node->FindAttribute("group");
    CHECK((group == nullptr || group->i == 1 || NchwcBlockSize() != 16));
  }
}

}  // namespace ort::test
