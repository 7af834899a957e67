// Rules nchwc_framed_conv and nchwc_framed_fused_conv: 3-D convolutions within frames
// (1 x KH x KW) of graphs built here run as blocked 2-D ones over the frames of every clip as a
// batch, and compute what the unoptimized graph (the 3-D Conv kernel) computes; convolutions that
// mix frames, group channels or read fewer channels than a block stay 3-D.
#include "lib/common/cpu_info.h"
#include "lib/onnx/model_loader.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

size_t CountFiveDimConvs(const Graph& graph) {
  size_t count = 0;
  for (const Node* node : graph.Nodes()) {
    if (node->op_type() != "Conv" && node->op_type() != "FusedConv") continue;
    const Tensor* weight = graph.GetConstantInitializer(node->inputs()[1], true);
    count += weight != nullptr && weight->shape().rank() == 5 ? 1 : 0;
  }
  return count;
}

struct Conv3d {
  int64_t in, out;
  std::vector<int64_t> kernel, strides, pads, dilations;
  int64_t group = 1;
};

// A 3-D Conv of x to y.
void AddConv3d(Graph& graph, const std::string& name, const std::string& x, const Conv3d& c,
               const std::string& y, uint32_t seed) {
  graph.AddInitializer(name + "_w",
                       RandomTensor({c.out, c.in / c.group, c.kernel[0], c.kernel[1], c.kernel[2]},
                                    seed, -0.5f, 0.5f));
  graph.AddInitializer(name + "_b", RandomTensor({c.out}, seed + 1));
  Node& conv = graph.AddNode({name, "Conv", "", {x, name + "_w", name + "_b"}, {y}, {}});
  conv.SetAttribute(Attribute::Ints("kernel_shape", c.kernel));
  conv.SetAttribute(Attribute::Ints("strides", c.strides));
  conv.SetAttribute(Attribute::Ints("pads", c.pads));
  conv.SetAttribute(Attribute::Ints("dilations", c.dilations));
  if (c.group != 1) conv.SetAttribute(Attribute::Int("group", c.group));
}

// One Conv on a [batch, channels, 5, 9, 11] clip batch, then Relu (fused into the Conv at level
// extended).
Model OneConv(Dimension batch, int64_t channels, const Conv3d& conv) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType(
      "x", ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{batch, Dimension::Known(channels), Dimension::Known(5),
                                           Dimension::Known(9), Dimension::Known(11)}));
  AddConv3d(graph, "conv", "x", conv, "c", 3);
  graph.AddNode({"relu", "Relu", "", {"c"}, {"y"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

void CheckRewrite(int64_t channels, const Conv3d& conv, bool framed) {
  for (const Dimension& batch : {Dimension::Known(2), Dimension::Symbol("N")}) {
    INFO("batch " << (batch.IsKnown() ? "2" : batch.param));
    Model model = OneConv(batch, channels, conv);
    model.graph().ResolveOuterScope();
    InferModelTypes(model);
    OptimizeAll(model);
    CHECK(CountFiveDimConvs(model.graph()) == (framed ? 0 : 1));
    CHECK(CountOps(model.graph(), "ReorderOutput") == (framed ? 1 : 0));
    const std::vector<NamedValue> feeds{{"x", Value(RandomTensor({2, channels, 5, 9, 11}, 21))}};
    const CpuRun plain =
        RunOnCpu(OneConv(batch, channels, conv), OptimizationLevel::kDisable, feeds);
    const CpuRun optimized =
        RunOnCpu(OneConv(batch, channels, conv), OptimizationLevel::kAll, feeds);
    REQUIRE(!plain.output.empty());
    CheckClose(optimized.output, plain.output, 1e-4, 1e-4);
  }
}

TEST_CASE("nchwc_framed_conv runs convolutions within frames as blocked 2-D ones",
          "[optimizer][nchwc]") {
  const int64_t block = NchwcBlockSize();
  SECTION("3x3, filters padded to a whole block") {
    CheckRewrite(block, {block, block + 4, {1, 3, 3}, {1, 1, 1}, {0, 1, 1, 0, 1, 1}, {1, 1, 1}},
                 true);
  }
  SECTION("5x3, strided and asymmetrically padded in space") {
    CheckRewrite(2 * block, {2 * block, 24, {1, 5, 3}, {1, 2, 2}, {0, 2, 0, 0, 1, 1}, {1, 1, 1}},
                 true);
  }
  SECTION("3x3 dilated in space") {
    CheckRewrite(block + 4, {block + 4, block, {1, 3, 3}, {1, 1, 1}, {0, 2, 2, 0, 2, 2}, {1, 2, 2}},
                 true);
  }
  SECTION("1x1 strided in space") {
    CheckRewrite(block, {block, block, {1, 1, 1}, {1, 2, 2}, {0, 0, 0, 0, 0, 0}, {1, 1, 1}}, true);
  }
  SECTION(
      "spanning frames, strided or padded in time, grouped, or of fewer channels than a block") {
    CheckRewrite(block, {block, block, {3, 3, 3}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, {1, 1, 1}}, false);
    CheckRewrite(block, {block, block, {1, 3, 3}, {2, 1, 1}, {0, 1, 1, 0, 1, 1}, {1, 1, 1}}, false);
    CheckRewrite(block, {block, block, {1, 3, 3}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, {1, 1, 1}}, false);
    CheckRewrite(2 * block,
                 {2 * block, 2 * block, {1, 3, 3}, {1, 1, 1}, {0, 1, 1, 0, 1, 1}, {1, 1, 1}, 2},
                 false);
    CheckRewrite(3, {3, block, {1, 3, 3}, {1, 1, 1}, {0, 1, 1, 0, 1, 1}, {1, 1, 1}}, false);
  }
}

}  // namespace
}  // namespace ort::test
