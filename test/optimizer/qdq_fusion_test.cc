// The extended level's QDQ fusions: QuantizeLinear(Conv or MatMul of DequantizeLinear inputs)
// becomes QLinearConv / QLinearMatMul, the weights' DequantizeLinear survives constant folding
// for it, a group whose float result has another reader stays as it is, and the fused model's
// output is the literal one within a quantization step (the integer product rounds once, the
// float one twice).
#include <cmath>

#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr float kInScale = 0.03f, kOutScale = 0.05f;

std::vector<float> WeightScales(int64_t count) {
  std::vector<float> scales;
  for (int64_t i = 0; i < count; ++i) scales.push_back(0.01f + 0.004f * static_cast<float>(i));
  return scales;
}

template <typename T>
std::vector<T> Cycle(int64_t count, int first, int step, int low, int high) {
  std::vector<T> values;
  for (int64_t i = 0; i < count; ++i) {
    values.push_back(static_cast<T>(low + (first + step * i) % (high - low + 1)));
  }
  return values;
}

struct ConvOptions {
  bool bias = true;
  bool conv_is_output = false;  // the float convolution is a second graph output
  std::string activation{};     // Relu or Clip (to [0, 6]) between the Conv and its Q
  uint8_t out_zero = 128;
  float out_scale = kOutScale;
};

// y = DQ(Q(act(Conv(DQ(Q(in)), DQ(W), DQ(B))))) with W [4,3,3,3] per filter.
Model ConvModel(const ConvOptions& options) {
  const bool bias = options.bias;
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("in", FloatTensor({1, 3, 6, 6}));
  graph.AddInitializer("in_scale", Tensor::Scalar<float>(kInScale));
  graph.AddInitializer("in_zero", Tensor::Scalar<uint8_t>(120));
  graph.AddInitializer("w", Tensor::FromVector<int8_t>(TensorShape({4, 3, 3, 3}),
                                                       Cycle<int8_t>(108, 5, 37, -127, 127)));
  graph.AddInitializer("w_scale", Tensor::FromVector<float>(TensorShape({4}), WeightScales(4)));
  graph.AddInitializer("w_zero", Tensor::FromVector<int8_t>(TensorShape({4}), {0, 0, 0, 0}));
  std::vector<float> bias_scales;
  for (float s : WeightScales(4)) bias_scales.push_back(kInScale * s);
  graph.AddInitializer("b", Tensor::FromVector<int32_t>(TensorShape({4}), {500, -900, 0, 77}));
  graph.AddInitializer("b_scale", Tensor::FromVector<float>(TensorShape({4}), bias_scales));
  graph.AddInitializer("out_scale", Tensor::Scalar<float>(options.out_scale));
  graph.AddInitializer("out_zero", Tensor::Scalar<uint8_t>(options.out_zero));
  graph.AddNode({"q_in", "QuantizeLinear", "", {"in", "in_scale", "in_zero"}, {"xq"}, {}});
  graph.AddNode({"dq_in", "DequantizeLinear", "", {"xq", "in_scale", "in_zero"}, {"x"}, {}});
  Node& dq_w =
      graph.AddNode({"dq_w", "DequantizeLinear", "", {"w", "w_scale", "w_zero"}, {"wf"}, {}});
  dq_w.SetAttribute(Attribute::Int("axis", 0));
  std::vector<std::string> conv_inputs{"x", "wf"};
  if (bias) {
    Node& dq_b = graph.AddNode({"dq_b", "DequantizeLinear", "", {"b", "b_scale"}, {"bf"}, {}});
    dq_b.SetAttribute(Attribute::Int("axis", 0));
    conv_inputs.push_back("bf");
  }
  Node& conv = graph.AddNode({"conv", "Conv", "", conv_inputs, {"c"}, {}});
  conv.SetAttribute(Attribute::Ints("pads", {1, 1, 1, 1}));
  std::string quantized = "c";
  if (options.activation == "Relu") {
    graph.AddNode({"relu", "Relu", "", {"c"}, {"r"}, {}});
    quantized = "r";
  } else if (options.activation == "Clip") {
    graph.AddInitializer("low", Tensor::Scalar<float>(0.0f));
    graph.AddInitializer("high", Tensor::Scalar<float>(6.0f));
    graph.AddNode({"clip", "Clip", "", {"c", "low", "high"}, {"r"}, {}});
    quantized = "r";
  }
  graph.AddNode({"q_out", "QuantizeLinear", "", {quantized, "out_scale", "out_zero"}, {"cq"}, {}});
  graph.AddNode({"dq_out", "DequantizeLinear", "", {"cq", "out_scale", "out_zero"}, {"y"}, {}});
  graph.set_inputs({"in"});
  std::vector<std::string> outputs{"y"};
  if (options.conv_is_output) outputs.push_back("c");
  graph.set_outputs(outputs);
  return model;
}

// y = DQ(Q(MatMul(DQ(Q(in)), DQ(B)))) with B [8,5] int8, per column when `per_column`.
Model MatMulModel(bool per_column, bool float_output = false) {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("in", FloatTensor({2, 3, 8}));
  graph.AddInitializer("in_scale", Tensor::Scalar<float>(kInScale));
  graph.AddInitializer("in_zero", Tensor::Scalar<uint8_t>(131));
  graph.AddInitializer(
      "b", Tensor::FromVector<int8_t>(TensorShape({8, 5}), Cycle<int8_t>(40, 3, 53, -128, 127)));
  if (per_column) {
    graph.AddInitializer("b_scale", Tensor::FromVector<float>(TensorShape({5}), WeightScales(5)));
  } else {
    graph.AddInitializer("b_scale", Tensor::Scalar<float>(0.012f));
  }
  graph.AddInitializer("out_scale", Tensor::Scalar<float>(kOutScale));
  graph.AddInitializer("out_zero", Tensor::Scalar<int8_t>(-3));
  graph.AddNode({"q_in", "QuantizeLinear", "", {"in", "in_scale", "in_zero"}, {"aq"}, {}});
  graph.AddNode({"dq_in", "DequantizeLinear", "", {"aq", "in_scale", "in_zero"}, {"a"}, {}});
  Node& dq_b = graph.AddNode({"dq_b", "DequantizeLinear", "", {"b", "b_scale"}, {"bf"}, {}});
  dq_b.SetAttribute(Attribute::Int("axis", 1));
  graph.AddNode({"matmul", "MatMul", "", {"a", "bf"}, {float_output ? "y" : "p"}, {}});
  if (!float_output) {
    graph.AddNode({"q_out", "QuantizeLinear", "", {"p", "out_scale", "out_zero"}, {"pq"}, {}});
    graph.AddNode({"dq_out", "DequantizeLinear", "", {"pq", "out_scale", "out_zero"}, {"y"}, {}});
  }
  graph.set_inputs({"in"});
  graph.set_outputs({"y"});
  return model;
}

// y = DQ(Q(Relu?(Add(DQ(Q(a)), DQ(Q(b)))))) on [2,3,4]; a Relu before a Q whose zero point is 0.
Model AddModel(bool relu) {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  for (const char* name : {"a", "b"}) graph.SetValueType(name, FloatTensor({2, 3, 4}));
  graph.AddInitializer("a_scale", Tensor::Scalar<float>(0.02f));
  graph.AddInitializer("a_zero", Tensor::Scalar<uint8_t>(120));
  graph.AddInitializer("b_scale", Tensor::Scalar<float>(0.03f));
  graph.AddInitializer("b_zero", Tensor::Scalar<uint8_t>(135));
  graph.AddInitializer("out_scale", Tensor::Scalar<float>(kOutScale));
  graph.AddInitializer("out_zero", Tensor::Scalar<uint8_t>(relu ? 0 : 128));
  for (const std::string x : {"a", "b"}) {
    graph.AddNode({"q_" + x, "QuantizeLinear", "", {x, x + "_scale", x + "_zero"}, {x + "q"}, {}});
    graph.AddNode(
        {"dq_" + x, "DequantizeLinear", "", {x + "q", x + "_scale", x + "_zero"}, {x + "f"}, {}});
  }
  graph.AddNode({"add", "Add", "", {"af", "bf"}, {"s"}, {}});
  std::string sum = "s";
  if (relu) {
    graph.AddNode({"relu", "Relu", "", {"s"}, {"r"}, {}});
    sum = "r";
  }
  graph.AddNode({"q_out", "QuantizeLinear", "", {sum, "out_scale", "out_zero"}, {"sq"}, {}});
  graph.AddNode({"dq_out", "DequantizeLinear", "", {"sq", "out_scale", "out_zero"}, {"y"}, {}});
  graph.set_inputs({"a", "b"});
  graph.set_outputs({"y"});
  return model;
}

void CheckWithinOneStep(const std::vector<float>& fused, const std::vector<float>& plain,
                        float step = kOutScale) {
  REQUIRE(fused.size() == plain.size());
  int64_t off = 0;
  for (size_t i = 0; i < fused.size(); ++i) {
    INFO(i << ": " << fused[i] << " vs " << plain[i]);
    CHECK(std::abs(fused[i] - plain[i]) <= step * 1.001f);
    off += fused[i] != plain[i];
  }
  // Rounding differs only near ties: most outputs are the same.
  CHECK(off * 10 <= static_cast<int64_t>(fused.size()));
}

// y = Gemm(DQ(Q(in)), DQ(W), DQ(b)) with W [4, 8] per output row (transB) and b int32 in units
// of in_scale * w_scale; quantized again (DQ(Q(y))) when `quantized`.
Model GemmModel(bool quantized) {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("in", FloatTensor({3, 8}));
  graph.AddInitializer("in_scale", Tensor::Scalar<float>(kInScale));
  graph.AddInitializer("in_zero", Tensor::Scalar<uint8_t>(125));
  graph.AddInitializer(
      "w", Tensor::FromVector<int8_t>(TensorShape({4, 8}), Cycle<int8_t>(32, 7, 41, -127, 127)));
  graph.AddInitializer("w_scale", Tensor::FromVector<float>(TensorShape({4}), WeightScales(4)));
  std::vector<float> bias_scales;
  for (float s : WeightScales(4)) bias_scales.push_back(kInScale * s);
  graph.AddInitializer("b", Tensor::FromVector<int32_t>(TensorShape({4}), {300, -700, 0, 41}));
  graph.AddInitializer("b_scale", Tensor::FromVector<float>(TensorShape({4}), bias_scales));
  graph.AddInitializer("out_scale", Tensor::Scalar<float>(kOutScale));
  graph.AddInitializer("out_zero", Tensor::Scalar<uint8_t>(128));
  graph.AddNode({"q_in", "QuantizeLinear", "", {"in", "in_scale", "in_zero"}, {"aq"}, {}});
  graph.AddNode({"dq_in", "DequantizeLinear", "", {"aq", "in_scale", "in_zero"}, {"a"}, {}});
  Node& dq_w = graph.AddNode({"dq_w", "DequantizeLinear", "", {"w", "w_scale"}, {"wf"}, {}});
  dq_w.SetAttribute(Attribute::Int("axis", 0));
  Node& dq_b = graph.AddNode({"dq_b", "DequantizeLinear", "", {"b", "b_scale"}, {"bf"}, {}});
  dq_b.SetAttribute(Attribute::Int("axis", 0));
  Node& gemm = graph.AddNode({"gemm", "Gemm", "", {"a", "wf", "bf"}, {quantized ? "g" : "y"}, {}});
  gemm.SetAttribute(Attribute::Int("transB", 1));
  if (quantized) {
    graph.AddNode({"q_out", "QuantizeLinear", "", {"g", "out_scale", "out_zero"}, {"gq"}, {}});
    graph.AddNode({"dq_out", "DequantizeLinear", "", {"gq", "out_scale", "out_zero"}, {"y"}, {}});
  }
  graph.set_inputs({"in"});
  graph.set_outputs({"y"});
  return model;
}

// y = DQ(Q(op(DQ(Q(in))))) for a unary float op, on [2, 40] spanning [-6, 6].
Model UnaryModel(const std::string& op) {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("in", FloatTensor({2, 40}));
  graph.AddInitializer("in_scale", Tensor::Scalar<float>(12.0f / 255.0f));
  graph.AddInitializer("in_zero", Tensor::Scalar<uint8_t>(128));
  graph.AddInitializer("out_scale", Tensor::Scalar<float>(1.0f / 255.0f));
  graph.AddInitializer("out_zero", Tensor::Scalar<uint8_t>(0));
  graph.AddNode({"q_in", "QuantizeLinear", "", {"in", "in_scale", "in_zero"}, {"xq"}, {}});
  graph.AddNode({"dq_in", "DequantizeLinear", "", {"xq", "in_scale", "in_zero"}, {"x"}, {}});
  graph.AddNode({"op", op, "", {"x"}, {"f"}, {}});
  graph.AddNode({"q_out", "QuantizeLinear", "", {"f", "out_scale", "out_zero"}, {"fq"}, {}});
  graph.AddNode({"dq_out", "DequantizeLinear", "", {"fq", "out_scale", "out_zero"}, {"y"}, {}});
  graph.set_inputs({"in"});
  graph.set_outputs({"y"});
  return model;
}

// onnxruntime's dynamic quantization of y = in x W + b, W [6, 4] int8 per column:
// DynamicQuantizeLinear, MatMulInteger, Cast, Mul by Mul(A_scale, W_scale), Add.
Model DynamicMatMulModel() {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("in", FloatTensor({3, 6}));
  graph.AddInitializer(
      "w", Tensor::FromVector<int8_t>(TensorShape({6, 4}), Cycle<int8_t>(24, 3, 29, -127, 127)));
  graph.AddInitializer("w_zero", Tensor::FromVector<int8_t>(TensorShape({4}), {0, 0, 0, 0}));
  graph.AddInitializer("w_scale", Tensor::FromVector<float>(TensorShape({4}), WeightScales(4)));
  graph.AddInitializer("b", Tensor::FromVector<float>(TensorShape({4}), {0.25f, -0.5f, 0, 1}));
  graph.AddNode({"dql", "DynamicQuantizeLinear", "", {"in"}, {"q", "q_scale", "q_zero"}, {}});
  graph.AddNode({"mmi", "MatMulInteger", "", {"q", "w", "q_zero", "w_zero"}, {"acc"}, {}});
  Node& cast = graph.AddNode({"cast", "Cast", "", {"acc"}, {"accf"}, {}});
  cast.SetAttribute(Attribute::Int("to", static_cast<int64_t>(DataType::kFloat)));
  graph.AddNode({"scales", "Mul", "", {"q_scale", "w_scale"}, {"s"}, {}});
  graph.AddNode({"scale", "Mul", "", {"accf", "s"}, {"p"}, {}});
  graph.AddNode({"bias", "Add", "", {"p", "b"}, {"y"}, {}});
  graph.set_inputs({"in"});
  graph.set_outputs({"y"});
  return model;
}

}  // namespace

TEST_CASE("A dynamically quantized MatMul becomes DynamicQuantizeMatMul", "[optimizer][qdq]") {
  Model model = DynamicMatMulModel();
  OptimizeExtended(model);
  CHECK(OpTypes(model.graph()) == Ops{"DynamicQuantizeMatMul"});
  const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({3, 6}, 14))}};
  const CpuRun plain = RunOnCpu(DynamicMatMulModel(), OptimizationLevel::kDisable, feeds);
  const CpuRun fused = RunOnCpu(DynamicMatMulModel(), OptimizationLevel::kExtended, feeds);
  // The same integer product and the same float steps: equal to the last bit.
  CHECK(fused.output == plain.output);
}

TEST_CASE("QDQ Sigmoid and HardSigmoid become table lookups", "[optimizer][qdq]") {
  for (const std::string op : {"Sigmoid", "HardSigmoid"}) {
    INFO(op);
    Model model = UnaryModel(op);
    OptimizeExtended(model);
    CHECK(OpTypes(model.graph()) == Ops{"QuantizeLinear", "QLinear" + op, "DequantizeLinear"});
    const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({2, 40}, 12, -6.0f, 6.0f))}};
    const CpuRun plain = RunOnCpu(UnaryModel(op), OptimizationLevel::kDisable, feeds);
    const CpuRun fused = RunOnCpu(UnaryModel(op), OptimizationLevel::kExtended, feeds);
    // The table computes f as the float kernel does up to its last bits: a value on a rounding
    // tie may land one step away.
    CheckWithinOneStep(fused.output, plain.output, 1.0f / 255.0f);
  }
}

TEST_CASE("A QDQ Gemm becomes com.microsoft QGemm, with float or 8-bit output",
          "[optimizer][qdq]") {
  for (const bool quantized : {false, true}) {
    INFO("quantized output " << quantized);
    Model model = GemmModel(quantized);
    OptimizeExtended(model);
    CHECK(OpTypes(model.graph()) == (quantized ? Ops{"QuantizeLinear", "QGemm", "DequantizeLinear"}
                                               : Ops{"QuantizeLinear", "QGemm"}));
    const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({3, 8}, 8))}};
    const CpuRun plain = RunOnCpu(GemmModel(quantized), OptimizationLevel::kDisable, feeds);
    const CpuRun fused = RunOnCpu(GemmModel(quantized), OptimizationLevel::kExtended, feeds);
    if (quantized) {
      CheckWithinOneStep(fused.output, plain.output);
    } else {
      CheckClose(fused.output, plain.output, 1e-5, 1e-5);
    }
  }
}

TEST_CASE("A QDQ Gemm whose bias is not in the product's units stays float", "[optimizer][qdq]") {
  Model model = GemmModel(false);
  Graph& graph = model.graph();
  graph.AddInitializer("b_scale", Tensor::FromVector<float>(TensorShape({4}), {1, 1, 1, 1}));
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "QGemm") == 0);
  CHECK(CountOps(model.graph(), "Gemm") == 1);
}

TEST_CASE("A QDQ Conv becomes QLinearConv at the extended level", "[optimizer][qdq]") {
  for (const bool bias : {true, false}) {
    INFO("bias " << bias);
    ConvOptions options;
    options.bias = bias;
    Model basic = ConvModel(options);
    OptimizeBasic(basic);
    CHECK(CountOps(basic.graph(), "DequantizeLinear") == (bias ? 4u : 3u));
    Model extended = ConvModel(options);
    OptimizeExtended(extended);
    CHECK(OpTypes(extended.graph()) == Ops{"QuantizeLinear", "QLinearConv", "DequantizeLinear"});
    const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({1, 3, 6, 6}, 3))}};
    const CpuRun plain = RunOnCpu(ConvModel(options), OptimizationLevel::kDisable, feeds);
    const CpuRun fused = RunOnCpu(ConvModel(options), OptimizationLevel::kExtended, feeds);
    CheckWithinOneStep(fused.output, plain.output);
  }
}

// Relu before a Q whose zero point is the type's minimum, or Clip(0, 6) before a Q whose range
// ends below 6, clips nothing the saturation would not: they go. Otherwise they stay, and so
// does the float Conv.
TEST_CASE("A QDQ Conv absorbs a Relu or Clip only where the Q makes it redundant",
          "[optimizer][qdq]") {
  struct Case {
    std::string activation;
    uint8_t out_zero;
    float out_scale;
    bool fused;
  };
  for (const Case& c : {Case{"Relu", 0, kOutScale, true}, Case{"Relu", 128, kOutScale, false},
                        Case{"Clip", 0, 0.02f, true}, Case{"Clip", 0, kOutScale, false}}) {
    INFO(c.activation << " zero " << int{c.out_zero} << " scale " << c.out_scale);
    ConvOptions options;
    options.activation = c.activation;
    options.out_zero = c.out_zero;
    options.out_scale = c.out_scale;
    Model model = ConvModel(options);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "QLinearConv") == (c.fused ? 1u : 0u));
    CHECK(CountOps(model.graph(), c.activation) == (c.fused ? 0u : 1u));
    if (!c.fused) continue;
    const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({1, 3, 6, 6}, 3))}};
    const CpuRun plain = RunOnCpu(ConvModel(options), OptimizationLevel::kDisable, feeds);
    const CpuRun fused = RunOnCpu(ConvModel(options), OptimizationLevel::kExtended, feeds);
    CheckWithinOneStep(fused.output, plain.output, c.out_scale);
  }
}

TEST_CASE("A QDQ Conv whose float result is also an output stays unfused", "[optimizer][qdq]") {
  ConvOptions options;
  options.conv_is_output = true;
  Model model = ConvModel(options);
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "QLinearConv") == 0);
  CHECK(CountOps(model.graph(), "Conv") == 1);
}

TEST_CASE("A QDQ MatMul with a float result becomes com.microsoft MatMulIntegerToFloat",
          "[optimizer][qdq]") {
  for (const bool per_column : {false, true}) {
    INFO("per column " << per_column);
    Model model = MatMulModel(per_column, true);
    OptimizeExtended(model);
    CHECK(OpTypes(model.graph()) == Ops{"QuantizeLinear", "MatMulIntegerToFloat"});
    const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({2, 3, 8}, 5))}};
    const CpuRun plain =
        RunOnCpu(MatMulModel(per_column, true), OptimizationLevel::kDisable, feeds);
    const CpuRun fused =
        RunOnCpu(MatMulModel(per_column, true), OptimizationLevel::kExtended, feeds);
    // The integer product is exact where the float one rounds its sums.
    CheckClose(fused.output, plain.output, 1e-5, 1e-5);
  }
}

TEST_CASE("A QDQ MatMul becomes QLinearMatMul, per tensor or per column", "[optimizer][qdq]") {
  for (const bool per_column : {false, true}) {
    INFO("per column " << per_column);
    Model model = MatMulModel(per_column);
    OptimizeExtended(model);
    CHECK(OpTypes(model.graph()) == Ops{"QuantizeLinear", "QLinearMatMul", "DequantizeLinear"});
    const std::vector<NamedValue> feeds{{"in", Value(RandomTensor({2, 3, 8}, 4))}};
    const CpuRun plain = RunOnCpu(MatMulModel(per_column), OptimizationLevel::kDisable, feeds);
    const CpuRun fused = RunOnCpu(MatMulModel(per_column), OptimizationLevel::kExtended, feeds);
    CheckWithinOneStep(fused.output, plain.output);
  }
}

TEST_CASE("A QDQ Add becomes com.microsoft QLinearAdd", "[optimizer][qdq]") {
  for (const bool relu : {false, true}) {
    INFO("relu " << relu);
    Model model = AddModel(relu);
    OptimizeExtended(model);
    CHECK(OpTypes(model.graph()) ==
          Ops{"QuantizeLinear", "QuantizeLinear", "QLinearAdd", "DequantizeLinear"});
    const std::vector<NamedValue> feeds{{"a", Value(RandomTensor({2, 3, 4}, 6))},
                                        {"b", Value(RandomTensor({2, 3, 4}, 7))}};
    const CpuRun plain = RunOnCpu(AddModel(relu), OptimizationLevel::kDisable, feeds);
    const CpuRun fused = RunOnCpu(AddModel(relu), OptimizationLevel::kExtended, feeds);
    CheckWithinOneStep(fused.output, plain.output);
  }
}

// y = DQ(Q(DQ(Q(a)) * DQ(half))), `half` an 8-bit constant for 0.5 as BERT's GELU has it:
// constant folding must leave its DequantizeLinear to the fusion.
Model MulByConstantModel() {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.SetValueType("a", FloatTensor({2, 3, 4}));
  graph.AddInitializer("a_scale", Tensor::Scalar<float>(0.02f));
  graph.AddInitializer("a_zero", Tensor::Scalar<uint8_t>(120));
  graph.AddInitializer("half", Tensor::Scalar<uint8_t>(255));
  graph.AddInitializer("half_scale", Tensor::Scalar<float>(0.5f / 255.0f));
  graph.AddInitializer("half_zero", Tensor::Scalar<uint8_t>(0));
  graph.AddInitializer("out_scale", Tensor::Scalar<float>(0.01f));
  graph.AddInitializer("out_zero", Tensor::Scalar<uint8_t>(128));
  graph.AddNode({"q_a", "QuantizeLinear", "", {"a", "a_scale", "a_zero"}, {"aq"}, {}});
  graph.AddNode({"dq_a", "DequantizeLinear", "", {"aq", "a_scale", "a_zero"}, {"af"}, {}});
  graph.AddNode(
      {"dq_half", "DequantizeLinear", "", {"half", "half_scale", "half_zero"}, {"hf"}, {}});
  graph.AddNode({"mul", "Mul", "", {"af", "hf"}, {"p"}, {}});
  graph.AddNode({"q_out", "QuantizeLinear", "", {"p", "out_scale", "out_zero"}, {"pq"}, {}});
  graph.AddNode({"dq_out", "DequantizeLinear", "", {"pq", "out_scale", "out_zero"}, {"y"}, {}});
  graph.set_inputs({"a"});
  graph.set_outputs({"y"});
  return model;
}

TEST_CASE("A QDQ Mul by a dequantized constant becomes com.microsoft QLinearMul",
          "[optimizer][qdq]") {
  Model model = MulByConstantModel();
  OptimizeExtended(model);
  CHECK(OpTypes(model.graph()) == Ops{"QuantizeLinear", "QLinearMul", "DequantizeLinear"});
  const std::vector<NamedValue> feeds{{"a", Value(RandomTensor({2, 3, 4}, 8))}};
  const CpuRun plain = RunOnCpu(MulByConstantModel(), OptimizationLevel::kDisable, feeds);
  const CpuRun fused = RunOnCpu(MulByConstantModel(), OptimizationLevel::kExtended, feeds);
  CheckWithinOneStep(fused.output, plain.output, 0.01f);
}

}  // namespace ort::test
