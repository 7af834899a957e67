// Rules conv3d_as_conv2d and fused_conv3d_as_conv2d: temporal 3-D convolutions (KT x 1 x 1) of
// graphs built here become blocked 2-D ones over [N, C, T, H*W] and compute what the unoptimized
// graph (the 3-D Conv kernel) computes; the frame-local and strided-in-space ones are
// nchwc_framed_conv's (test/optimizer/nchwc_frames_test.cc).
#include "lib/onnx/model_loader.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

size_t CountConvRank(const Graph& graph, size_t rank) {
  size_t count = 0;
  for (const Node* node : graph.Nodes()) {
    if (node->op_type() != "Conv" && node->op_type() != "FusedConv") continue;
    const Tensor* weight = graph.GetConstantInitializer(node->inputs()[1], true);
    count += weight != nullptr && weight->shape().rank() == rank ? 1 : 0;
  }
  return count;
}

size_t CountNchwcConvs(const Graph& graph) {
  size_t count = 0;
  for (const Node* node : graph.Nodes()) {
    count += node->domain() == "com.microsoft.nchwc" && node->op_type() == "Conv" ? 1 : 0;
  }
  return count;
}

// A 3-D Conv of `in` to `out` channels with `kernel`, `strides` and `pads` (begins, ends).
void AddConv3d(Graph& graph, const std::string& name, const std::string& x, int64_t in, int64_t out,
               std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads,
               const std::string& y, uint32_t seed) {
  graph.AddInitializer(name + "_w",
                       RandomTensor({out, in, kernel[0], kernel[1], kernel[2]}, seed, -0.5f, 0.5f));
  graph.AddInitializer(name + "_b", RandomTensor({out}, seed + 1));
  Node& conv = graph.AddNode({name, "Conv", "", {x, name + "_w", name + "_b"}, {y}, {}});
  conv.SetAttribute(Attribute::Ints("kernel_shape", std::move(kernel)));
  conv.SetAttribute(Attribute::Ints("strides", std::move(strides)));
  conv.SetAttribute(Attribute::Ints("pads", std::move(pads)));
}

// A (2+1)-D residual block on [batch, 16, 6, 5, 7] clips: a frame-local 1x3x3 Conv, a temporal
// 3x1x1 one summed with the block's input and activated, a temporal one of stride 2 in time and
// asymmetric padding, a pointwise one, and a 1x1x1 Conv strided in space.
Model VideoModel(Dimension batch) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType(
      "x", ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{batch, Dimension::Known(16), Dimension::Known(6),
                                           Dimension::Known(5), Dimension::Known(7)}));
  AddConv3d(graph, "spatial", "x", 16, 32, {1, 3, 3}, {1, 1, 1}, {0, 1, 1, 0, 1, 1}, "s", 1);
  graph.AddNode({"spatial_relu", "Relu", "", {"s"}, {"sr"}, {}});
  AddConv3d(graph, "temporal", "sr", 32, 16, {3, 1, 1}, {1, 1, 1}, {1, 0, 0, 1, 0, 0}, "t", 3);
  graph.AddNode({"residual", "Add", "", {"t", "x"}, {"r"}, {}});
  graph.AddNode({"residual_relu", "Relu", "", {"r"}, {"rr"}, {}});
  AddConv3d(graph, "downsample", "rr", 16, 32, {3, 1, 1}, {2, 1, 1}, {1, 0, 0, 0, 0, 0}, "d", 5);
  AddConv3d(graph, "pointwise", "d", 32, 16, {1, 1, 1}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}, "p", 7);
  AddConv3d(graph, "strided", "p", 16, 16, {1, 1, 1}, {1, 2, 2}, {0, 0, 0, 0, 0, 0}, "y", 9);
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

TEST_CASE("conv3d_as_conv2d runs temporal 3-D convolutions as blocked 2-D ones",
          "[optimizer][nchwc]") {
  for (const Dimension& batch : {Dimension::Known(2), Dimension::Symbol("N")}) {
    INFO("batch " << (batch.IsKnown() ? "2" : batch.param));
    Model model = VideoModel(batch);
    model.graph().ResolveOuterScope();
    InferModelTypes(model);
    OptimizeAll(model);
    const Graph& graph = model.graph();
    // The temporal ones (one summing the residual as a FusedConv), the strided-in-time one and
    // the pointwise one are blocked by reshapes, the frame-local one and the one strided in space
    // over the frames as a batch.
    CHECK(CountConvRank(graph, 5) == 0);
    CHECK(CountNchwcConvs(graph) == 5);
    CHECK(CountOps(graph, "Add") == 0);

    const std::vector<NamedValue> feeds{{"x", Value(RandomTensor({2, 16, 6, 5, 7}, 21))}};
    const CpuRun plain = RunOnCpu(VideoModel(batch), OptimizationLevel::kDisable, feeds);
    const CpuRun blocked = RunOnCpu(VideoModel(batch), OptimizationLevel::kAll, feeds);
    REQUIRE(plain.output.size() == 2 * 16 * 3 * 3 * 4);
    CheckClose(blocked.output, plain.output, 1e-4, 1e-4);
  }
}

}  // namespace
}  // namespace ort::test
