// The level-all pass nchwc_layout: CNN graphs built here are rewritten into com.microsoft.nchwc
// ops (node counts checked) and compute what the unoptimized graph computes; convolutions it must
// not touch stay as they are.
#include <algorithm>

#include "lib/ir/graph_validation.h"
#include "lib/onnx/model_loader.h"
#include "lib/optimizer/pattern_utils.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr std::string_view kNchwc = "com.microsoft.nchwc";

size_t CountNchwc(const Graph& graph, std::string_view op_type) {
  size_t count = 0;
  for (const Node* node : graph.Nodes()) {
    count += node->domain() == kNchwc && node->op_type() == op_type ? 1 : 0;
  }
  return count;
}

size_t CountDomain(const Graph& graph, std::string_view domain) {
  size_t count = 0;
  for (const Node* node : graph.Nodes()) count += node->domain() == domain ? 1 : 0;
  return count;
}

// The pass blocks only convolutions whose input shapes are known, so types are inferred first.
void InferAndOptimizeAll(Model& model) {
  model.graph().ResolveOuterScope();
  InferModelTypes(model);
  OptimizeAll(model);
}

void AddConv(Graph& graph, const std::string& name, const std::string& x, int64_t in, int64_t out,
             int64_t kernel, int64_t stride, int64_t group, const std::string& y, uint32_t seed) {
  graph.AddInitializer(name + "_w",
                       RandomTensor({out, in / group, kernel, kernel}, seed, -0.5f, 0.5f));
  graph.AddInitializer(name + "_b", RandomTensor({out}, seed + 1));
  Node& conv = graph.AddNode({name, "Conv", "", {x, name + "_w", name + "_b"}, {y}, {}});
  const int64_t pad = kernel / 2;
  conv.SetAttribute(Attribute::Ints("kernel_shape", {kernel, kernel}));
  conv.SetAttribute(Attribute::Ints("strides", {stride, stride}));
  conv.SetAttribute(Attribute::Ints("pads", {pad, pad, pad, pad}));
  if (group != 1) conv.SetAttribute(Attribute::Int("group", group));
}

// A small residual network: a stem on a 3-channel image, max pooling, a bottleneck whose sum
// with its input is activated, a depthwise stage, global pooling.
Model ResidualModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({1, 3, 17, 19}));
  AddConv(graph, "stem", "x", 3, 32, 3, 2, 1, "s", 1);
  graph.AddNode({"stem_relu", "Relu", "", {"s"}, {"sr"}, {}});
  Node& pool = graph.AddNode({"pool", "MaxPool", "", {"sr"}, {"p"}, {}});
  pool.SetAttribute(Attribute::Ints("kernel_shape", {3, 3}));
  pool.SetAttribute(Attribute::Ints("strides", {2, 2}));
  pool.SetAttribute(Attribute::Ints("pads", {1, 1, 1, 1}));
  AddConv(graph, "reduce", "p", 32, 16, 1, 1, 1, "r", 3);
  graph.AddNode({"reduce_relu", "Relu", "", {"r"}, {"rr"}, {}});
  AddConv(graph, "expand", "rr", 16, 32, 3, 1, 1, "e", 5);
  graph.AddNode({"residual", "Add", "", {"e", "p"}, {"sum"}, {}});
  graph.AddNode({"residual_relu", "Relu", "", {"sum"}, {"a"}, {}});
  AddConv(graph, "depthwise", "a", 32, 32, 3, 1, 32, "d", 7);
  graph.AddNode({"clip", "Clip", "", {"d", "lo", "hi"}, {"dc"}, {}});
  graph.AddInitializer("lo", Tensor::Scalar<float>(0.0f));
  graph.AddInitializer("hi", Tensor::Scalar<float>(6.0f));
  graph.AddNode({"gap", "GlobalAveragePool", "", {"dc"}, {"y"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

// Channels that are no multiple of the block (20), a value read inside and outside the region,
// elementwise ops on blocked data and a Concat of parts that fill whole blocks.
Model PassThroughModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({1, 20, 9, 11}));
  AddConv(graph, "c1", "x", 20, 20, 3, 1, 1, "a", 11);
  graph.AddNode({"sig", "Sigmoid", "", {"a"}, {"g"}, {}});
  graph.AddNode({"gate", "Mul", "", {"a", "g"}, {"m"}, {}});
  Node& pool = graph.AddNode({"avg", "AveragePool", "", {"m"}, {"p"}, {}});
  pool.SetAttribute(Attribute::Ints("kernel_shape", {2, 2}));
  AddConv(graph, "c2", "p", 20, 32, 1, 1, 1, "b", 13);
  AddConv(graph, "c3", "p", 20, 32, 3, 1, 1, "c", 15);
  Node& concat = graph.AddNode({"cat", "Concat", "", {"b", "c"}, {"y"}, {}});
  concat.SetAttribute(Attribute::Int("axis", 1));
  graph.AddNode({"tanh", "Tanh", "", {"a"}, {"t"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y", "t"});
  return model;
}

// An upsampling neck: nearest Resize by 2 and a scalar affine step between two convolutions.
Model UpsampleModel() {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({1, 16, 5, 6}));
  AddConv(graph, "c1", "x", 16, 16, 3, 1, 1, "a", 31);
  graph.AddInitializer("scales", Tensor::FromVector<float>(TensorShape({4}), {1, 1, 2, 2}));
  Node& resize = graph.AddNode({"up", "Resize", "", {"a", "", "scales"}, {"u"}, {}});
  resize.SetAttribute(Attribute::String("coordinate_transformation_mode", "asymmetric"));
  resize.SetAttribute(Attribute::String("nearest_mode", "floor"));
  graph.AddInitializer("three", Tensor::Scalar<float>(3.0f));
  graph.AddInitializer("six", Tensor::Scalar<float>(6.0f));
  graph.AddNode({"shift", "Add", "", {"u", "three"}, {"s"}, {}});
  graph.AddNode({"scale", "Div", "", {"s", "six"}, {"d"}, {}});
  AddConv(graph, "c2", "d", 16, 8, 1, 1, 1, "y", 33);
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

// A ConvNeXt block as torch exports it with a dynamic batch: the stem's output feeds both the
// depthwise Conv and, across a channels-last MLP (Transpose, LayerNorm, MatMul, erf GELU, MatMul,
// scale, Transpose back), the residual Add. The depthwise Conv reads the stem's blocked twin, so
// the Add must not become the stem's Sum: that Sum would be computed from the stem's own output.
// torchvision scales after the Transpose back, by a [C, 1, 1] constant (`scale_last`).
Model ConvNextBlockModel(bool scale_last) {
  Model model = MakeModel(17);
  Graph& graph = model.graph();
  const int64_t c = 32;
  SymbolicShape x_shape{Dimension::Symbol("N"), Dimension::Known(c), Dimension::Known(6),
                        Dimension::Known(6)};
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, x_shape));
  AddConv(graph, "stem", "x", c, c, 1, 1, 1, "s", 41);
  AddConv(graph, "dw", "s", c, c, 3, 1, c, "d", 43);
  graph.AddNode({"to_last", "Transpose", "", {"d"}, {"t"}, {}})
      .SetAttribute(Attribute::Ints("perm", {0, 2, 3, 1}));
  graph.AddInitializer("ln_scale", RandomTensor({c}, 45, 0.5f, 1.5f));
  graph.AddInitializer("ln_bias", RandomTensor({c}, 46));
  graph.AddNode({"ln", "LayerNormalization", "", {"t", "ln_scale", "ln_bias"}, {"n"}, {}})
      .SetAttribute(Attribute::Int("axis", -1));
  graph.AddInitializer("w1", RandomTensor({c, 4 * c}, 47, -0.3f, 0.3f));
  graph.AddInitializer("b1", RandomTensor({4 * c}, 48));
  graph.AddNode({"fc1", "MatMul", "", {"n", "w1"}, {"h0"}, {}});
  graph.AddNode({"fc1_bias", "Add", "", {"h0", "b1"}, {"h"}, {}});
  graph.AddInitializer("sqrt2", Tensor::Scalar<float>(1.41421356f));
  graph.AddInitializer("one", Tensor::Scalar<float>(1.0f));
  graph.AddInitializer("half", Tensor::Scalar<float>(0.5f));
  graph.AddNode({"gelu_div", "Div", "", {"h", "sqrt2"}, {"g0"}, {}});
  graph.AddNode({"gelu_erf", "Erf", "", {"g0"}, {"g1"}, {}});
  graph.AddNode({"gelu_add", "Add", "", {"g1", "one"}, {"g2"}, {}});
  graph.AddNode({"gelu_mul", "Mul", "", {"h", "g2"}, {"g3"}, {}});
  graph.AddNode({"gelu_half", "Mul", "", {"g3", "half"}, {"g"}, {}});
  graph.AddInitializer("w2", RandomTensor({4 * c, c}, 49, -0.2f, 0.2f));
  graph.AddInitializer("b2", RandomTensor({c}, 50));
  graph.AddNode({"fc2", "MatMul", "", {"g", "w2"}, {"f0"}, {}});
  graph.AddNode({"fc2_bias", "Add", "", {"f0", "b2"}, {"f"}, {}});
  if (scale_last) {
    graph.AddInitializer("gamma", RandomTensor({c, 1, 1}, 51, 0.1f, 1.0f));
    graph.AddNode({"to_first", "Transpose", "", {"f"}, {"m"}, {}})
        .SetAttribute(Attribute::Ints("perm", {0, 3, 1, 2}));
    graph.AddNode({"layer_scale", "Mul", "", {"gamma", "m"}, {"b"}, {}});
  } else {
    graph.AddInitializer("gamma", RandomTensor({c}, 51, 0.1f, 1.0f));
    graph.AddNode({"layer_scale", "Mul", "", {"gamma", "f"}, {"m"}, {}});
    graph.AddNode({"to_first", "Transpose", "", {"m"}, {"b"}, {}})
        .SetAttribute(Attribute::Ints("perm", {0, 3, 1, 2}));
  }
  graph.AddNode({"residual", "Add", "", {"s", "b"}, {"y"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

// A Conv whose output a second Conv reads (visited first) and Relu reads: the Relu must not
// become the first Conv's activation, or the second Conv would read rectified values.
Model SharedConvOutputModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({1, 16, 5, 5}));
  AddConv(graph, "c1", "x", 16, 16, 3, 1, 1, "a", 61);
  AddConv(graph, "c2", "a", 16, 16, 1, 1, 1, "b", 63);
  graph.AddNode({"relu", "Relu", "", {"a"}, {"r"}, {}});
  graph.AddNode({"cat", "Concat", "", {"b", "r"}, {"y"}, {}})
      .SetAttribute(Attribute::Int("axis", 1));
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

void AddBatchNorm(Graph& graph, const std::string& name, const std::string& x, int64_t channels,
                  const std::string& y, uint32_t seed) {
  graph.AddInitializer(name + "_scale", RandomTensor({channels}, seed, 0.5f, 1.5f));
  graph.AddInitializer(name + "_bias", RandomTensor({channels}, seed + 1));
  graph.AddInitializer(name + "_mean", RandomTensor({channels}, seed + 2));
  graph.AddInitializer(name + "_var", RandomTensor({channels}, seed + 3, 0.25f, 2.0f));
  graph
      .AddNode({name,
                "BatchNormalization",
                "",
                {x, name + "_scale", name + "_bias", name + "_mean", name + "_var"},
                {y},
                {}})
      .SetAttribute(Attribute::Float("epsilon", 1e-3f));
}

// A DenseNet block: normalization and activation come before each convolution, so the
// BatchNormalizations (after a Conv whose output is also concatenated, and after the Concat)
// cannot fold into a Conv's weights.
Model DenseBlockModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({1, 32, 6, 7}));
  AddConv(graph, "stem", "x", 32, 32, 3, 1, 1, "s", 71);
  AddBatchNorm(graph, "bn0", "s", 32, "n0", 73);
  graph.AddNode({"relu0", "Relu", "", {"n0"}, {"r0"}, {}});
  AddConv(graph, "bottleneck", "r0", 32, 16, 1, 1, 1, "a", 77);
  graph.AddNode({"relu1", "Relu", "", {"a"}, {"r1"}, {}});
  AddConv(graph, "growth", "r1", 16, 16, 3, 1, 1, "b", 79);
  graph.AddNode({"cat", "Concat", "", {"s", "b"}, {"c"}, {}})
      .SetAttribute(Attribute::Int("axis", 1));
  AddBatchNorm(graph, "bn1", "c", 48, "n1", 81);
  graph.AddNode({"relu2", "Relu", "", {"n1"}, {"y"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

// A RegNet stage: grouped 3x3 convolutions whose groups hold 16 channels (whole blocks at every
// block size), with a dynamic batch.
Model GroupedConvModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  SymbolicShape x_shape{Dimension::Symbol("N"), Dimension::Known(32), Dimension::Known(7),
                        Dimension::Known(7)};
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, x_shape));
  AddConv(graph, "reduce", "x", 32, 32, 1, 1, 1, "a", 91);
  graph.AddNode({"relu0", "Relu", "", {"a"}, {"r0"}, {}});
  AddConv(graph, "grouped", "r0", 32, 32, 3, 1, 2, "b", 93);
  graph.AddNode({"relu1", "Relu", "", {"b"}, {"r1"}, {}});
  AddConv(graph, "down", "r1", 32, 64, 3, 2, 2, "y", 95);
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

// RegNet's narrow groups: 8 channels per group (4 groups, then 2 groups strided), which B = 16
// blocks by merging neighbouring groups in pairs.
Model NarrowGroupsModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  SymbolicShape x_shape{Dimension::Symbol("N"), Dimension::Known(32), Dimension::Known(9),
                        Dimension::Known(9)};
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, x_shape));
  AddConv(graph, "reduce", "x", 32, 32, 1, 1, 1, "a", 111);
  AddConv(graph, "narrow", "a", 32, 32, 3, 1, 4, "b", 113);
  graph.AddNode({"relu", "Relu", "", {"b"}, {"r"}, {}});
  AddConv(graph, "down", "r", 32, 32, 3, 2, 4, "y", 115);
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

// A squeeze-and-excitation branch whose squeeze has 6 channels, no multiple of 4: the blocked
// Conv pads its filters, and the expanding Conv reads the padded twin.
Model SqueezeModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({1, 16, 5, 5}));
  AddConv(graph, "conv", "x", 16, 16, 3, 1, 1, "a", 101);
  graph.AddNode({"gap", "GlobalAveragePool", "", {"a"}, {"g"}, {}});
  AddConv(graph, "squeeze", "g", 16, 6, 1, 1, 1, "q", 103);
  graph.AddNode({"relu", "Relu", "", {"q"}, {"r"}, {}});
  AddConv(graph, "expand", "r", 6, 16, 1, 1, 1, "e", 105);
  graph.AddNode({"sigmoid", "Sigmoid", "", {"e"}, {"y"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

// A MobileNet/EfficientNet block with a dynamic batch: a SiLU, a squeeze-and-excitation gate
// [N, C, 1, 1] multiplying the [N, C, H, W] activations, and a GELU (com.microsoft, as the
// extended level fuses it) before the projecting Conv.
Model ExcitationModel(bool static_spatial) {
  Model model = MakeModel(14);
  model.opsets()[std::string(kMsDomain)] = 1;
  Graph& graph = model.graph();
  const Dimension h = static_spatial ? Dimension::Known(6) : Dimension::Symbol("H");
  const Dimension w = static_spatial ? Dimension::Known(5) : Dimension::Symbol("W");
  graph.SetValueType(
      "x", ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{Dimension::Symbol("N"), Dimension::Known(32), h, w}));
  AddConv(graph, "conv", "x", 32, 32, 3, 1, 1, "a", 111);
  graph.AddNode({"sigmoid", "Sigmoid", "", {"a"}, {"s"}, {}});
  graph.AddNode({"silu", "Mul", "", {"a", "s"}, {"m"}, {}});
  graph.AddNode({"gap", "GlobalAveragePool", "", {"m"}, {"g"}, {}});
  AddConv(graph, "squeeze", "g", 32, 8, 1, 1, 1, "q", 113);
  graph.AddNode({"relu", "Relu", "", {"q"}, {"r"}, {}});
  AddConv(graph, "expand", "r", 8, 32, 1, 1, 1, "e", 115);
  graph.AddNode({"gate", "HardSigmoid", "", {"e"}, {"k"}, {}});
  graph.AddNode({"excite", "Mul", "", {"k", "m"}, {"z"}, {}});
  graph.AddNode({"gelu", "Gelu", std::string(kMsDomain), {"z"}, {"u"}, {}});
  AddConv(graph, "project", "u", 32, 16, 1, 1, 1, "y", 117);
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

// Arithmetic with per-channel constants ([C, 1, 1]) between two convolutions, in every operand
// order the affine rewrite distinguishes.
Model ChannelConstantModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({1, 16, 4, 5}));
  AddConv(graph, "c1", "x", 16, 16, 3, 1, 1, "a", 121);
  graph.AddInitializer("k1", RandomTensor({16, 1, 1}, 123));
  graph.AddInitializer("k2", RandomTensor({1, 16, 1, 1}, 125, 0.5f, 2.0f));
  graph.AddInitializer("k3", RandomTensor({16, 1, 1}, 127));
  graph.AddNode({"flip", "Sub", "", {"k1", "a"}, {"b"}, {}});
  graph.AddNode({"divide", "Div", "", {"b", "k2"}, {"c"}, {}});
  graph.AddNode({"shift", "Sub", "", {"c", "k3"}, {"d"}, {}});
  AddConv(graph, "c2", "d", 16, 16, 1, 1, 1, "y", 129);
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

void CheckSameOutputsAtAll(const std::function<Model()>& build, std::vector<int64_t> dims) {
  std::vector<NamedValue> feeds{{"x", Value(RandomTensor(std::move(dims), 21))}};
  const CpuRun plain = RunOnCpu(build(), OptimizationLevel::kDisable, feeds);
  const CpuRun blocked = RunOnCpu(build(), OptimizationLevel::kAll, feeds);
  CheckClose(blocked.output, plain.output, 1e-4, 1e-4);
}

TEST_CASE("nchwc_layout rewrites a residual network into blocked ops", "[optimizer][nchwc]") {
  Model model = ResidualModel();
  InferAndOptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountOps(graph, "Relu") == 0);
  CHECK(CountOps(graph, "Clip") == 0);
  CHECK(CountOps(graph, "Add") == 0);
  CHECK(CountNchwc(graph, "Conv") == 4);
  CHECK(CountNchwc(graph, "MaxPool") == 1);
  CHECK(CountNchwc(graph, "GlobalAveragePool") == 1);
  // The stem reads the 3-channel image directly; only the pooled output leaves the region.
  CHECK(CountNchwc(graph, "ReorderInput") == 0);
  CHECK(CountNchwc(graph, "ReorderOutput") == 1);
  CHECK(graph.NodeCount() == 7);
  const Node& expand = *graph.Producer(graph.Producer("y")->inputs()[0]);
  CHECK(expand.domain() == kNchwc);
  CHECK(graph.opsets().count(std::string(kNchwc)) == 1);
  CheckSameOutputsAtAll(ResidualModel, {1, 3, 17, 19});
}

// A device provider with no kernels: preferred, it must keep the CPU-only rewrites away.
class PreferredDevice final : public IExecutionProvider {
 public:
  PreferredDevice() : IExecutionProvider("device") {}
  const KernelRegistry& kernel_registry() const override { return registry_; }
  std::shared_ptr<IAllocator> allocator() const override { return DefaultCpuAllocator(); }

 private:
  KernelRegistry registry_;
};

TEST_CASE("CPU-only rewrites leave the graph alone when a device provider comes first",
          "[optimizer][nchwc]") {
  Model model = ResidualModel();
  model.graph().ResolveOuterScope();
  InferModelTypes(model);
  PreferredDevice device;
  CpuExecutionProvider cpu;
  IExecutionProvider* providers[] = {&device, &cpu};
  REQUIRE(OptimizeGraph(model, {OptimizationLevel::kAll, {}}, providers).ok());
  const Graph& graph = model.graph();
  CHECK(CountDomain(graph, kNchwc) == 0);
  CHECK(CountDomain(graph, "com.microsoft") == 0);
  CHECK(CountOps(graph, "Conv") == 4);
}

TEST_CASE("nchwc_layout runs elementwise ops and Concat on blocked data", "[optimizer][nchwc]") {
  Model model = PassThroughModel();
  InferAndOptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountNchwc(graph, "Conv") == 3);
  CHECK(CountNchwc(graph, "AveragePool") == 1);
  CHECK(CountNchwc(graph, "ReorderInput") == 1);
  // y (after the Concat) and t (Tanh of the first conv) leave the region.
  CHECK(CountNchwc(graph, "ReorderOutput") == 2);
  CHECK(graph.Producer(graph.Producer("y")->inputs()[0])->op_type() == "Concat");
  CheckSameOutputsAtAll(PassThroughModel, {1, 20, 9, 11});
}

TEST_CASE("nchwc_layout upsamples blocked data and passes scalar arithmetic through",
          "[optimizer][nchwc]") {
  Model model = UpsampleModel();
  InferAndOptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountNchwc(graph, "Conv") == 2);
  CHECK(CountNchwc(graph, "Upsample") == 1);
  CHECK(CountNchwc(graph, "ReorderInput") == 1);
  CHECK(CountNchwc(graph, "ReorderOutput") == 1);
  CHECK(CountOps(graph, "Resize") == 0);
  CHECK(graph.NodeCount() == 7);
  CheckSameOutputsAtAll(UpsampleModel, {1, 16, 5, 6});
}

TEST_CASE("nchwc_layout leaves convolutions it cannot block", "[optimizer][nchwc]") {
  SECTION("weights fed at run time") {
    Model model = MakeModel(14);
    Graph& graph = model.graph();
    graph.SetValueType("x", FloatTensor({1, 8, 6, 6}));
    graph.SetValueType("w", FloatTensor({8, 8, 3, 3}));
    graph.AddNode({"conv", "Conv", "", {"x", "w"}, {"y"}, {}});
    graph.set_inputs({"x", "w"});
    graph.set_outputs({"y"});
    InferAndOptimizeAll(model);
    CHECK(CountDomain(model.graph(), kNchwc) == 0);
  }
  SECTION("groups of channels that fill no whole block") {
    Model model = MakeModel(14);
    Graph& graph = model.graph();
    graph.SetValueType("x", FloatTensor({1, 12, 6, 6}));
    AddConv(graph, "conv", "x", 12, 12, 3, 1, 2, "y", 1);
    graph.set_inputs({"x"});
    graph.set_outputs({"y"});
    InferAndOptimizeAll(model);
    CHECK(CountDomain(model.graph(), kNchwc) == 0);
  }
  SECTION("double tensors") {
    Model model = MakeModel(14);
    Graph& graph = model.graph();
    SymbolicShape shape{Dimension::Known(1), Dimension::Known(8), Dimension::Known(6),
                        Dimension::Known(6)};
    graph.SetValueType("x", ValueType::Tensor(DataType::kDouble, shape));
    graph.AddInitializer(
        "w", Tensor::FromVector<double>(TensorShape({8, 8, 1, 1}), std::vector<double>(64, 0.5)));
    graph.AddNode({"conv", "Conv", "", {"x", "w"}, {"y"}, {}});
    graph.set_inputs({"x"});
    graph.set_outputs({"y"});
    InferAndOptimizeAll(model);
    CHECK(CountDomain(model.graph(), kNchwc) == 0);
  }
}

size_t CountChannelsLast(const Graph& graph, std::string_view op_type) {
  size_t count = 0;
  for (const Node* node : graph.Nodes()) {
    const Attribute* channels_last = node->FindAttribute("channels_last");
    count += node->op_type() == op_type && channels_last != nullptr && channels_last->i == 1;
  }
  return count;
}

TEST_CASE("nchwc_layout keeps a ConvNeXt block acyclic and reorders its channels-last island",
          "[optimizer][nchwc]") {
  for (const bool scale_last : {false, true}) {
    INFO("scale after the Transpose back: " << scale_last);
    Model model = ConvNextBlockModel(scale_last);
    InferAndOptimizeAll(model);
    const Graph& graph = model.graph();
    INFO(ValidateGraph(graph).ToString());
    REQUIRE(ValidateGraph(graph).ok());
    // Both convolutions stay blocked; the stem has no Sum. x enters the region and y leaves it;
    // the MLP reads the depthwise Conv's output as NHWC and its result is blocked from NHWC, so
    // no Transpose is left.
    CHECK(CountOps(graph, "Conv") == (scale_last ? 3 : 2));
    CHECK(CountNchwc(graph, "Conv") == (scale_last ? 3 : 2));
    CHECK(CountOps(graph, "Transpose") == 0);
    CHECK(CountNchwc(graph, "ReorderInput") == 2);
    CHECK(CountNchwc(graph, "ReorderOutput") == 2);
    CHECK(CountChannelsLast(graph, "ReorderInput") == 1);
    CHECK(CountChannelsLast(graph, "ReorderOutput") == 1);
    for (const Node* node : graph.Nodes()) {
      if (node->name().starts_with("stem")) CHECK(node->inputs().size() == 3);
    }
    if (scale_last) {
      // The layer scale is a depthwise Conv that adds the residual as its Sum.
      const Node& scale = *graph.Producer(graph.Producer("y")->inputs()[0]);
      CHECK(scale.name().starts_with("layer_scale"));
      CHECK(scale.inputs().size() == 4);
    } else {
      CHECK(CountOps(graph, "Add") >= 1);
    }
    const auto build = [scale_last] { return ConvNextBlockModel(scale_last); };
    CheckSameOutputsAtAll(build, {2, 32, 6, 6});
  }
}

TEST_CASE("nchwc_layout fuses into a Conv only what alone reads its output", "[optimizer][nchwc]") {
  Model model = SharedConvOutputModel();
  InferAndOptimizeAll(model);
  const Graph& graph = model.graph();
  REQUIRE(ValidateGraph(graph).ok());
  CHECK(CountNchwc(graph, "Conv") == 2);
  CHECK(CountOps(graph, "Relu") == 1);
  for (const Node* node : graph.Nodes()) {
    if (node->op_type() == "Conv") CHECK(node->FindAttribute("activation") == nullptr);
  }
  CheckSameOutputsAtAll(SharedConvOutputModel, {1, 16, 5, 5});
}

TEST_CASE("nchwc_layout turns BatchNormalization of blocked data into a depthwise Conv",
          "[optimizer][nchwc]") {
  Model model = DenseBlockModel();
  InferAndOptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountOps(graph, "BatchNormalization") == 0);
  CHECK(CountOps(graph, "Relu") == 0);
  CHECK(CountNchwc(graph, "Conv") == 5);
  CHECK(CountNchwc(graph, "ReorderInput") == 1);
  CHECK(CountNchwc(graph, "ReorderOutput") == 1);
  const Node& last = *graph.Producer(graph.Producer("y")->inputs()[0]);
  REQUIRE(last.domain() == kNchwc);
  CHECK(last.FindAttribute("activation")->s == "Relu");
  CHECK(last.FindAttribute("group")->i == ConstantInput(graph, last, 1)->shape()[0]);
  CheckSameOutputsAtAll(DenseBlockModel, {1, 32, 6, 7});
}

TEST_CASE("nchwc_layout blocks grouped convolutions whose groups fill whole blocks",
          "[optimizer][nchwc]") {
  Model model = GroupedConvModel();
  InferAndOptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountOps(graph, "Conv") == 3);
  CHECK(CountNchwc(graph, "Conv") == 3);
  CHECK(CountNchwc(graph, "ReorderInput") == 1);
  CHECK(CountNchwc(graph, "ReorderOutput") == 1);
  size_t grouped = 0;
  for (const Node* node : graph.Nodes()) {
    const Attribute* group = node->FindAttribute("group");
    grouped += node->op_type() == "Conv" && group != nullptr && group->i == 2 ? 1 : 0;
  }
  CHECK(grouped == 2);
  CheckSameOutputsAtAll(GroupedConvModel, {2, 32, 7, 7});
}

TEST_CASE("nchwc_layout blocks groups narrower than a block by merging them in pairs",
          "[optimizer][nchwc]") {
  // At B = 16 the 8-channel groups merge (4 groups become 2); at B = 8 they fill blocks as given.
  Model model = NarrowGroupsModel();
  InferAndOptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountOps(graph, "Conv") == 3);
  CHECK(CountNchwc(graph, "Conv") == 3);
  CHECK(CountNchwc(graph, "ReorderOutput") == 1);
  CheckSameOutputsAtAll(NarrowGroupsModel, {2, 32, 9, 9});
}

TEST_CASE("nchwc_layout pads the filters of a Conv whose channels are no multiple of 4",
          "[optimizer][nchwc]") {
  Model model = SqueezeModel();
  InferAndOptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountNchwc(graph, "Conv") == 3);
  CHECK(CountNchwc(graph, "GlobalAveragePool") == 1);
  CHECK(CountNchwc(graph, "ReorderInput") == 1);
  CHECK(CountNchwc(graph, "ReorderOutput") == 1);
  CHECK(CountOps(graph, "Relu") == 0);
  CheckSameOutputsAtAll(SqueezeModel, {1, 16, 5, 5});
}

TEST_CASE("nchwc_layout applies excitation gates and GELU to blocked data", "[optimizer][nchwc]") {
  for (const bool static_spatial : {true, false}) {
    INFO("static spatial dims: " << static_spatial);
    Model model = ExcitationModel(static_spatial);
    InferAndOptimizeAll(model);
    const Graph& graph = model.graph();
    CHECK(CountNchwc(graph, "Conv") == 4);
    CHECK(CountNchwc(graph, "ReorderInput") == 1);
    CHECK(CountNchwc(graph, "ReorderOutput") == 1);
    CHECK(CountOps(graph, "Gelu") == 1);
    // The gate and the activations are viewed [N, C / B, pixels, B] and the product back.
    CHECK(CountOps(graph, "Reshape") == 3);
    CHECK(CountOps(graph, "Shape") == (static_spatial ? 0 : 1));
    const auto build = [static_spatial] { return ExcitationModel(static_spatial); };
    CheckSameOutputsAtAll(build, {2, 32, 6, 5});
  }
}

TEST_CASE("nchwc_layout applies per-channel constants to blocked data", "[optimizer][nchwc]") {
  Model model = ChannelConstantModel();
  InferAndOptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountOps(graph, "Sub") == 0);
  CHECK(CountOps(graph, "Div") == 0);
  CHECK(CountNchwc(graph, "Conv") == 5);
  CHECK(CountNchwc(graph, "ReorderInput") == 1);
  CHECK(CountNchwc(graph, "ReorderOutput") == 1);
  CheckSameOutputsAtAll(ChannelConstantModel, {1, 16, 4, 5});
}

}  // namespace
// Detection models batch their resized images in ways inference cannot follow: the stem's input
// has no known channel count, which its weights give.
Model UnknownChannelsStemModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType(
      "x", ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{Dimension::Symbol("n"), Dimension{},
                                           Dimension::Symbol("h"), Dimension::Symbol("w")}));
  AddConv(graph, "stem", "x", 3, 16, 3, 2, 1, "s", 31);
  graph.AddNode({"relu", "Relu", "", {"s"}, {"y"}, {}});
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

TEST_CASE("nchwc_layout takes a stem's unknown input channels from its weights",
          "[optimizer][nchwc]") {
  Model model = UnknownChannelsStemModel();
  InferAndOptimizeAll(model);
  CHECK(CountNchwc(model.graph(), "Conv") == 1);
  CHECK(CountNchwc(model.graph(), "ReorderInput") == 0);
  CheckSameOutputsAtAll(UnknownChannelsStemModel, {2, 3, 9, 11});
  // Another channel count is the Conv's error at run time, as without the layout.
  const auto session = MakeCpuSession(std::make_unique<Model>(UnknownChannelsStemModel()));
  std::vector<NamedValue> feeds{{"x", Value(RandomTensor({1, 4, 9, 11}, 3))}};
  std::vector<Value> outputs;
  const Status status = session->Run({}, feeds, {}, &outputs);
  CHECK_FALSE(status.ok());
  CHECK_THAT(status.message(), Catch::Contains("group"));
}

}  // namespace ort::test

namespace ort::test {
namespace {

// 3x3 stride-1 convolutions of 16 and 32 channels over an image of symbolic height and width:
// the NCHWc Conv decides on Winograd at its first call (nchwc_conv.cc's LazyWinograd).
Model SymbolicSizeConvModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat,
                                            SymbolicShape{Dimension::Known(1), Dimension::Known(16),
                                                          Dimension::Symbol("height"),
                                                          Dimension::Symbol("width")}));
  graph.AddInitializer("w1", RandomTensor({32, 16, 3, 3}, 1, -0.3f, 0.3f));
  graph.AddInitializer("b1", RandomTensor({32}, 2));
  graph.AddInitializer("w2", RandomTensor({16, 32, 3, 3}, 3, -0.3f, 0.3f));
  Node& first = graph.AddNode({"conv1", "Conv", "", {"x", "w1", "b1"}, {"c1"}, {}});
  first.SetAttribute(Attribute::Ints("pads", {1, 1, 1, 1}));
  graph.AddNode({"relu", "Relu", "", {"c1"}, {"r1"}, {}});
  Node& second = graph.AddNode({"conv2", "Conv", "", {"r1", "w2"}, {"y"}, {}});
  second.SetAttribute(Attribute::Ints("pads", {1, 1, 1, 1}));
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  return model;
}

}  // namespace

TEST_CASE("nchwc Conv over a symbolic image size matches the plain graph, small and large",
          "[optimizer][nchwc]") {
  // 9x7 stays direct; 37x33 (90 tiles) makes the Winograd transform at its first call.
  for (const auto& [height, width] : {std::pair<int64_t, int64_t>{9, 7}, {37, 33}}) {
    INFO("image " << height << "x" << width);
    std::vector<NamedValue> feeds{{"x", Value(RandomTensor({1, 16, height, width}, 5))}};
    const CpuRun plain = RunOnCpu(SymbolicSizeConvModel(), OptimizationLevel::kDisable, feeds);
    const CpuRun blocked = RunOnCpu(SymbolicSizeConvModel(), OptimizationLevel::kAll, feeds);
    CHECK(std::count(blocked.executed.begin(), blocked.executed.end(), "ReorderInput") == 1);
    CheckClose(blocked.output, plain.output, 1e-4, 1e-4);
  }
}

}  // namespace ort::test
