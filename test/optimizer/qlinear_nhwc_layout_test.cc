// 8-bit data movement and layout: drop_qdq_data_movement runs a MaxPool between a
// DequantizeLinear and a QuantizeLinear of the same parameters on the 8-bit tensor (and leaves
// other groups alone), and qlinear_nhwc_layout runs the QLinearConvs, QLinearAdd and MaxPool of a
// quantized block channels-last with a Transpose only at each end, giving the extended level's
// outputs exactly (the same integer kernels, only the layout differs).
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr float kScale = 0.04f;
constexpr uint8_t kZero = 110;

template <typename T>
std::vector<T> Cycle(int64_t count, int first, int step, int low, int high) {
  std::vector<T> values;
  for (int64_t i = 0; i < count; ++i) {
    values.push_back(static_cast<T>(low + (first + step * i) % (high - low + 1)));
  }
  return values;
}

// Adds q(name) = QuantizeLinear(name) and dq(name) = DequantizeLinear(q(name)), with the shared
// scale and zero point; returns dq's output.
std::string QuantizeDequantize(Graph& graph, const std::string& value,
                               const std::string& scale = "scale") {
  graph.AddNode({"q_" + value, "QuantizeLinear", "", {value, scale, "zero"}, {value + "_q"}, {}});
  graph.AddNode(
      {"dq_" + value, "DequantizeLinear", "", {value + "_q", scale, "zero"}, {value + "_f"}, {}});
  return value + "_f";
}

void AddQuantizationParameters(Graph& graph) {
  graph.AddInitializer("scale", Tensor::Scalar<float>(kScale));
  graph.AddInitializer("other_scale", Tensor::Scalar<float>(kScale * 1.5f));
  graph.AddInitializer("zero", Tensor::Scalar<uint8_t>(kZero));
}

// y = DQ(Q(op(DQ(Q(in))))) for op a 2x2 MaxPool or a linear Resize, the second Q with `scale`.
Model MovementModel(const std::string& op, const std::string& scale) {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("in", FloatTensor({1, 2, 4, 4}));
  AddQuantizationParameters(graph);
  const std::string x = QuantizeDequantize(graph, "in");
  if (op == "MaxPool") {
    Node& pool = graph.AddNode({"pool", "MaxPool", "", {x}, {"p"}, {}});
    pool.SetAttribute(Attribute::Ints("kernel_shape", {2, 2}));
    pool.SetAttribute(Attribute::Ints("strides", {2, 2}));
  } else {
    graph.AddInitializer("roi", Tensor::FromVector<float>(TensorShape({0}), {}));
    graph.AddInitializer("scales", Tensor::FromVector<float>(TensorShape({4}), {1, 1, 2, 2}));
    Node& resize = graph.AddNode({"resize", "Resize", "", {x, "roi", "scales"}, {"p"}, {}});
    resize.SetAttribute(Attribute::String("mode", "linear"));
  }
  graph.AddNode({"q_p", "QuantizeLinear", "", {"p", scale, "zero"}, {"p_q"}, {}});
  graph.AddNode({"dq_p", "DequantizeLinear", "", {"p_q", scale, "zero"}, {"y"}, {}});
  graph.set_inputs({"in"});
  graph.set_outputs({"y"});
  return model;
}

// A quantized residual block: c1 = Conv(x), c2 = Conv(c1), s = c1 + c2, y = MaxPool(s), all in
// QDQ form over [1, 3, 8, 8] -> 4 channels, each Conv's weights per filter; with `scalar_bias`
// s also gets a quantized one-value constant added before the pool.
Model BlockModel(bool scalar_bias = false) {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("in", FloatTensor({1, 3, 8, 8}));
  AddQuantizationParameters(graph);
  graph.AddInitializer(
      "w_scale", Tensor::FromVector<float>(TensorShape({4}), {0.010f, 0.014f, 0.018f, 0.022f}));
  graph.AddInitializer("w_zero", Tensor::FromVector<int8_t>(TensorShape({4}), {0, 0, 0, 0}));
  std::string x = QuantizeDequantize(graph, "in");
  const std::pair<int64_t, int> convs[] = {{3, 5}, {4, 11}};
  std::vector<std::string> outputs;
  for (size_t i = 0; i < 2; ++i) {
    const auto [channels, seed] = convs[i];
    const std::string w = "w" + std::to_string(i), c = "c" + std::to_string(i);
    graph.AddInitializer(
        w, Tensor::FromVector<int8_t>(TensorShape({4, channels, 3, 3}),
                                      Cycle<int8_t>(4 * channels * 9, seed, 37, -127, 127)));
    Node& dq_w = graph.AddNode(
        {"dq_" + w, "DequantizeLinear", "", {w, "w_scale", "w_zero"}, {w + "_f"}, {}});
    dq_w.SetAttribute(Attribute::Int("axis", 0));
    Node& conv = graph.AddNode({"conv" + std::to_string(i), "Conv", "", {x, w + "_f"}, {c}, {}});
    conv.SetAttribute(Attribute::Ints("pads", {1, 1, 1, 1}));
    x = QuantizeDequantize(graph, c);
    outputs.push_back(x);
  }
  graph.AddNode({"add", "Add", "", {outputs[0], outputs[1]}, {"s"}, {}});
  std::string sum = QuantizeDequantize(graph, "s");
  if (scalar_bias) {
    graph.AddInitializer("bias", Tensor::Scalar<uint8_t>(150));
    graph.AddNode({"dq_bias", "DequantizeLinear", "", {"bias", "scale", "zero"}, {"bias_f"}, {}});
    graph.AddNode({"add_bias", "Add", "", {sum, "bias_f"}, {"t"}, {}});
    sum = QuantizeDequantize(graph, "t");
  }
  Node& pool = graph.AddNode({"pool", "MaxPool", "", {sum}, {"p"}, {}});
  pool.SetAttribute(Attribute::Ints("kernel_shape", {2, 2}));
  pool.SetAttribute(Attribute::Ints("strides", {2, 2}));
  graph.AddNode({"q_p", "QuantizeLinear", "", {"p", "scale", "zero"}, {"p_q"}, {}});
  graph.AddNode({"dq_p", "DequantizeLinear", "", {"p_q", "scale", "zero"}, {"y"}, {}});
  graph.set_inputs({"in"});
  graph.set_outputs({"y"});
  return model;
}

// Two quantized convolutions of one input concatenated, each quantized with its own scale, then
// globally averaged: y = DQ(Q(GAP(DQ(Q(Concat(DQ(Q(c0)), DQ(Q(c1)))))))), [1, 3, 6, 6] in.
Model ConcatPoolModel() {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("in", FloatTensor({1, 3, 6, 6}));
  AddQuantizationParameters(graph);
  graph.AddInitializer(
      "w_scale", Tensor::FromVector<float>(TensorShape({4}), {0.010f, 0.014f, 0.018f, 0.022f}));
  graph.AddInitializer("w_zero", Tensor::FromVector<int8_t>(TensorShape({4}), {0, 0, 0, 0}));
  const std::string x = QuantizeDequantize(graph, "in");
  std::vector<std::string> branches;
  for (int i = 0; i < 2; ++i) {
    const std::string w = "w" + std::to_string(i), c = "c" + std::to_string(i);
    graph.AddInitializer(w,
                         Tensor::FromVector<int8_t>(TensorShape({4, 3, 3, 3}),
                                                    Cycle<int8_t>(108, 5 + 6 * i, 37, -127, 127)));
    Node& dq_w = graph.AddNode(
        {"dq_" + w, "DequantizeLinear", "", {w, "w_scale", "w_zero"}, {w + "_f"}, {}});
    dq_w.SetAttribute(Attribute::Int("axis", 0));
    Node& conv = graph.AddNode({"conv" + std::to_string(i), "Conv", "", {x, w + "_f"}, {c}, {}});
    conv.SetAttribute(Attribute::Ints("pads", {1, 1, 1, 1}));
    branches.push_back(QuantizeDequantize(graph, c, i == 0 ? "scale" : "other_scale"));
  }
  Node& concat = graph.AddNode({"concat", "Concat", "", branches, {"cat"}, {}});
  concat.SetAttribute(Attribute::Int("axis", 1));
  const std::string joined = QuantizeDequantize(graph, "cat");
  graph.AddNode({"gap", "GlobalAveragePool", "", {joined}, {"g"}, {}});
  graph.AddNode({"q_g", "QuantizeLinear", "", {"g", "scale", "zero"}, {"g_q"}, {}});
  graph.AddNode({"dq_g", "DequantizeLinear", "", {"g_q", "scale", "zero"}, {"y"}, {}});
  graph.set_inputs({"in"});
  graph.set_outputs({"y"});
  return model;
}

// Adds a QDQ Conv of `x` (dequantized, `channels` channels) to `filters` filters of `kernel`
// x `kernel` taps (padding kernel / 2), quantized and dequantized after; returns that value.
std::string AddQdqConv(Graph& graph, const std::string& x, const std::string& name,
                       int64_t channels, int64_t filters, int64_t kernel, int seed) {
  const std::string w = name + "_w", w_scale = name + "_w_scale", w_zero = name + "_w_zero";
  graph.AddInitializer(
      w, Tensor::FromVector<int8_t>(
             TensorShape({filters, channels, kernel, kernel}),
             Cycle<int8_t>(filters * channels * kernel * kernel, seed, 37, -127, 127)));
  graph.AddInitializer(w_scale, Tensor::Scalar<float>(0.012f));
  graph.AddInitializer(w_zero, Tensor::Scalar<int8_t>(0));
  graph.AddNode({"dq_" + w, "DequantizeLinear", "", {w, w_scale, w_zero}, {w + "_f"}, {}});
  Node& conv = graph.AddNode({name, "Conv", "", {x, w + "_f"}, {name + "_out"}, {}});
  const int64_t pad = kernel / 2;
  conv.SetAttribute(Attribute::Ints("pads", {pad, pad, pad, pad}));
  return QuantizeDequantize(graph, name + "_out");
}

// A detector-like head between two quantized convolutions: Sigmoid in float, Split, Slice,
// Concat and a nearest Resize along the channels and pixels, and the Shape of a value inside:
// y = conv2(DQ(Q(Resize(Concat(Split(s)[0], Slice(Split(s)[1]))))), s = DQ(Q(Sigmoid(conv1))).
Model HeadModel() {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("in", FloatTensor({1, 3, 8, 8}));
  AddQuantizationParameters(graph);
  const std::string c1 = AddQdqConv(graph, QuantizeDequantize(graph, "in"), "conv1", 3, 4, 3, 5);
  graph.AddNode({"sigmoid", "Sigmoid", "", {c1}, {"s"}, {}});
  const std::string s = QuantizeDequantize(graph, "s");
  Node& split = graph.AddNode(
      {"split", "Split", "", {s, Ints(graph, "split_sizes", {2, 2})}, {"a", "b"}, {}});
  split.SetAttribute(Attribute::Int("axis", 1));
  graph.AddNode(
      {"slice",
       "Slice",
       "",
       {"b", Ints(graph, "starts", {1}), Ints(graph, "ends", {2}), Ints(graph, "axes", {1})},
       {"b1"},
       {}});
  Node& concat = graph.AddNode({"concat", "Concat", "", {"a", "b1"}, {"ab"}, {}});
  concat.SetAttribute(Attribute::Int("axis", -3));
  graph.AddNode({"shape", "Shape", "", {"ab"}, {"ab_shape"}, {}});
  graph.AddInitializer("roi", Tensor::FromVector<float>(TensorShape({0}), {}));
  graph.AddInitializer("scales", Tensor::FromVector<float>(TensorShape({4}), {1, 1, 2, 2}));
  Node& resize = graph.AddNode({"resize", "Resize", "", {"ab", "roi", "scales"}, {"r"}, {}});
  resize.SetAttribute(Attribute::String("mode", "nearest"));
  const std::string y = AddQdqConv(graph, QuantizeDequantize(graph, "r"), "conv2", 3, 4, 1, 11);
  graph.AddNode({"identity", "Identity", "", {y}, {"y"}, {}});
  graph.set_inputs({"in"});
  graph.set_outputs({"y", "ab_shape"});
  return model;
}

size_t CountDomainOps(const Graph& graph, std::string_view domain, std::string_view op_type) {
  size_t count = 0;
  for (const Node* node : graph.Nodes()) {
    count += node->domain() == domain && node->op_type() == op_type;
  }
  return count;
}

}  // namespace

TEST_CASE("A MaxPool between a DequantizeLinear and a QuantizeLinear alike runs on 8 bits",
          "[optimizer][qdq]") {
  Model model = MovementModel("MaxPool", "scale");
  OptimizeExtended(model);
  CHECK(OpTypes(model.graph()) == Ops{"QuantizeLinear", "MaxPool", "DequantizeLinear"});
  const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({1, 2, 4, 4}, 9))}};
  const CpuRun plain =
      RunOnCpu(MovementModel("MaxPool", "scale"), OptimizationLevel::kDisable, feeds);
  const CpuRun dropped =
      RunOnCpu(MovementModel("MaxPool", "scale"), OptimizationLevel::kExtended, feeds);
  CHECK(dropped.output == plain.output);
}

TEST_CASE("Q/DQ pairs stay around a MaxPool that requantizes and a Resize that interpolates",
          "[optimizer][qdq]") {
  for (const auto& [op, scale] :
       {std::pair<std::string, std::string>{"MaxPool", "other_scale"}, {"Resize", "scale"}}) {
    INFO(op << " " << scale);
    Model model = MovementModel(op, scale);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "DequantizeLinear") == 2);
    CHECK(CountOps(model.graph(), "QuantizeLinear") == 2);
  }
}

TEST_CASE("A quantized block runs channels-last between one Transpose in and one out",
          "[optimizer][qdq]") {
  Model model = BlockModel();
  OptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountDomainOps(graph, kMsDomain, "QLinearConv") == 2);
  CHECK(CountDomainOps(graph, "", "QLinearConv") == 0);
  CHECK(CountDomainOps(graph, kMsDomain, "QLinearAdd") == 1);
  CHECK(CountDomainOps(graph, kMsDomain, "NhwcMaxPool") == 1);
  CHECK(CountOps(graph, "Transpose") == 2);
  for (const Node* node : graph.Nodes()) {
    if (node->op_type() != "QLinearConv") continue;
    const Attribute* channels_last = node->FindAttribute("channels_last");
    REQUIRE(channels_last != nullptr);
    CHECK(channels_last->i == 1);
  }
  const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({1, 3, 8, 8}, 21))}};
  const CpuRun extended = RunOnCpu(BlockModel(), OptimizationLevel::kExtended, feeds);
  const CpuRun all = RunOnCpu(BlockModel(), OptimizationLevel::kAll, feeds);
  CHECK(all.output == extended.output);
  const CpuRun plain = RunOnCpu(BlockModel(), OptimizationLevel::kDisable, feeds);
  REQUIRE(plain.output.size() == all.output.size());
  // The integer kernels round once where the float graph rounds twice: within a step or two.
  for (size_t i = 0; i < plain.output.size(); ++i) {
    INFO(i);
    CHECK(std::abs(all.output[i] - plain.output[i]) <= 2 * kScale * 1.001f);
  }
}

TEST_CASE("A QLinearAdd of a one-value constant stays channels-last", "[optimizer][qdq]") {
  Model model = BlockModel(true);
  OptimizeAll(model);
  CHECK(CountDomainOps(model.graph(), kMsDomain, "QLinearAdd") == 2);
  CHECK(CountOps(model.graph(), "Transpose") == 2);
  const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({1, 3, 8, 8}, 22))}};
  const CpuRun extended = RunOnCpu(BlockModel(true), OptimizationLevel::kExtended, feeds);
  const CpuRun all = RunOnCpu(BlockModel(true), OptimizationLevel::kAll, feeds);
  CHECK(all.output == extended.output);
}

TEST_CASE("QDQ Concat and GlobalAveragePool fuse, and follow the convolutions channels-last",
          "[optimizer][qdq]") {
  Model extended = ConcatPoolModel();
  OptimizeExtended(extended);
  CHECK(CountDomainOps(extended.graph(), kMsDomain, "QLinearConcat") == 1);
  CHECK(CountDomainOps(extended.graph(), kMsDomain, "QLinearGlobalAveragePool") == 1);
  CHECK(CountOps(extended.graph(), "Concat") == 0);
  CHECK(CountOps(extended.graph(), "GlobalAveragePool") == 0);
  Model all = ConcatPoolModel();
  OptimizeAll(all);
  CHECK(CountOps(all.graph(), "Transpose") == 2);
  for (const Node* node : all.graph().Nodes()) {
    if (node->op_type() == "QLinearConcat") CHECK(node->FindAttribute("axis")->i == 3);
    if (node->op_type() == "QLinearGlobalAveragePool") {
      CHECK(node->FindAttribute("channels_last")->i == 1);
    }
  }
  const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({1, 3, 6, 6}, 23))}};
  const CpuRun plain = RunOnCpu(ConcatPoolModel(), OptimizationLevel::kDisable, feeds);
  const CpuRun fused = RunOnCpu(ConcatPoolModel(), OptimizationLevel::kExtended, feeds);
  const CpuRun nhwc = RunOnCpu(ConcatPoolModel(), OptimizationLevel::kAll, feeds);
  CHECK(nhwc.output == fused.output);
  REQUIRE(plain.output.size() == fused.output.size());
  for (size_t i = 0; i < plain.output.size(); ++i) {
    INFO(i);
    CHECK(std::abs(fused.output[i] - plain.output[i]) <= 2 * kScale * 1.001f);
  }
}

TEST_CASE("A detector head between quantized convolutions stays channels-last",
          "[optimizer][qdq]") {
  Model model = HeadModel();
  OptimizeAll(model);
  const Graph& graph = model.graph();
  CHECK(CountDomainOps(graph, kMsDomain, "QLinearConv") == 2);
  // One Transpose into the first convolution, one out of the last; Shape reads the twin.
  CHECK(CountOps(graph, "Transpose") == 2);
  for (const Node* node : graph.Nodes()) {
    INFO(node->Describe());
    if (node->op_type() == "Split" || node->op_type() == "Concat") {
      CHECK(node->FindAttribute("axis")->i == 3);
    }
  }
  const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({1, 3, 8, 8}, 29))}};
  const CpuRun extended = RunOnCpu(HeadModel(), OptimizationLevel::kExtended, feeds);
  const CpuRun all = RunOnCpu(HeadModel(), OptimizationLevel::kAll, feeds);
  CHECK(all.output == extended.output);
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kAll;
  const auto session = MakeCpuSession(std::make_unique<Model>(HeadModel()), options);
  std::vector<Value> outputs;
  REQUIRE(session->Run({}, feeds, {}, &outputs).ok());
  REQUIRE(outputs.size() == 2);
  const Tensor& shape = outputs[1].tensor();
  CHECK(std::vector<int64_t>(shape.Data<int64_t>(), shape.Data<int64_t>() + 4) ==
        std::vector<int64_t>{1, 3, 8, 8});
}

TEST_CASE("A MaxPool between different Q/DQ parameters pools the 8-bit tensor",
          "[optimizer][qdq]") {
  Model model = MovementModel("MaxPool", "other_scale");
  OptimizeExtended(model);
  CHECK(OpTypes(model.graph()) ==
        Ops{"QuantizeLinear", "MaxPool", "DequantizeLinear", "QuantizeLinear", "DequantizeLinear"});
  const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({1, 2, 4, 4}, 9))}};
  const CpuRun plain =
      RunOnCpu(MovementModel("MaxPool", "other_scale"), OptimizationLevel::kDisable, feeds);
  const CpuRun moved =
      RunOnCpu(MovementModel("MaxPool", "other_scale"), OptimizationLevel::kExtended, feeds);
  CHECK(moved.output == plain.output);
}

}  // namespace ort::test
