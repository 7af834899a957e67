// Static quantization to QDQ: the structure ONNX Runtime's quantizer writes, per-channel
// weights, op-type filtering and exclusion, and the quantized model running close to the float
// one on the engine (which fuses the groups into integer kernels).
#include <cmath>

#include "lib/quantization/quantizer.h"
#include "test/quantization/quantization_test_util.h"

namespace ort::test {
namespace {

std::unique_ptr<Model> Quantized(const QuantizeOptions& options,
                                 const std::vector<CalibrationSet>& sets,
                                 std::vector<OpTypeCount>* counts = nullptr) {
  auto model = ConvReluPoolModel();
  auto result = QuantizeModel(*model, options, sets, CpuSessions());
  INFO(result.status().ToString());
  REQUIRE(result.ok());
  if (counts != nullptr) *counts = *result;
  return model;
}

OpTypeCount CountOf(const std::vector<OpTypeCount>& counts, const std::string& op_type) {
  for (const OpTypeCount& count : counts) {
    if (count.op_type == op_type) return count;
  }
  return {op_type, 0, 0};
}

double Cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / std::sqrt(na * nb);
}

TEST_CASE("Static quantization writes ONNX Runtime's QDQ format", "[quantization]") {
  const auto sets = UniformSets("x", {1, 2, 6, 6}, 4);
  std::vector<OpTypeCount> counts;
  const auto model = Quantized(QuantizeOptions{}, sets, &counts);
  const Graph& graph = model->graph();

  // Activations: the input, the Relu's output (past the Conv, which the Relu alone reads) and
  // the MaxPool's output, which keeps its input's parameters. The graph output stays float.
  CHECK(CountOps(graph, "QuantizeLinear") == 3);
  CHECK(CountOps(graph, "DequantizeLinear") == 5);
  for (const std::string name : {"x", "relu_out", "pool_out"}) {
    const Node* dequantize = graph.Producer(name + "_dequantized");
    REQUIRE(dequantize != nullptr);
    CHECK(dequantize->inputs() ==
          std::vector<std::string>{name + "_quantized", name + "_scale", name + "_zero_point"});
    CHECK(graph.Producer(name + "_quantized")->op_type() == "QuantizeLinear");
    CHECK(graph.GetInitializer(name + "_zero_point")->dtype() == DataType::kUint8);
  }
  CHECK(graph.GetInitializer("pool_out_scale")->Data<float>()[0] ==
        graph.GetInitializer("relu_out_scale")->Data<float>()[0]);
  CHECK(graph.GetInitializer("x_zero_point")->Data<uint8_t>()[0] > 0);
  CHECK(graph.GetInitializer("relu_out_zero_point")->Data<uint8_t>()[0] == 0);

  // Conv reads dequantized x, W and B; the Relu stays on the Conv's float output.
  const Node* conv = graph.Producer("conv_out");
  REQUIRE(conv != nullptr);
  CHECK(conv->inputs() ==
        std::vector<std::string>{"x_dequantized", "W_dequantized", "B_dequantized"});
  CHECK(graph.Producer("relu_out")->inputs()[0] == "conv_out");
  CHECK(graph.Producer("y")->inputs()[0] == "pool_out_dequantized");

  // Weights int8 symmetric per tensor; the bias int32 in units of x_scale * W_scale, zero point
  // left out.
  CHECK(graph.GetInitializer("W") == nullptr);
  CHECK(graph.GetInitializer("W_quantized")->dtype() == DataType::kInt8);
  CHECK(graph.GetInitializer("W_zero_point")->Data<int8_t>()[0] == 0);
  CHECK(graph.GetInitializer("W_scale")->shape().rank() == 0);
  const Node* bias = graph.Producer("B_dequantized");
  CHECK(bias->inputs() == std::vector<std::string>{"B_quantized", "B_scale"});
  CHECK(graph.GetInitializer("B_quantized")->dtype() == DataType::kInt32);
  CHECK(graph.GetInitializer("B_scale")->Data<float>()[0] ==
        Approx(graph.GetInitializer("x_scale")->Data<float>()[0] *
               graph.GetInitializer("W_scale")->Data<float>()[0]));

  CHECK(CountOf(counts, "Conv").quantized == 1);
  CHECK(CountOf(counts, "Relu").quantized == 1);
  CHECK(CountOf(counts, "MaxPool").quantized == 1);
  CHECK(CountOf(counts, "GlobalAveragePool").quantized == 1);

  // The engine fuses the group and stays close to the float model.
  CHECK(ExecutedOps(*model, "QLinearConv") == 1);
  const auto float_model = ConvReluPoolModel();
  for (const auto& set : UniformSets("x", {1, 2, 6, 6}, 2)) {
    const auto expected = RunModel(*float_model, set);
    const auto actual = RunModel(*model, set);
    CHECK(Cosine(expected, actual) > 0.999);
    for (size_t i = 0; i < expected.size(); ++i)
      CHECK(actual[i] == Approx(expected[i]).margin(0.05));
  }
}

TEST_CASE("Per-channel weights get one scale per output channel", "[quantization]") {
  QuantizeOptions options;
  options.per_channel = true;
  const auto model = Quantized(options, UniformSets("x", {1, 2, 6, 6}, 2));
  const Graph& graph = model->graph();
  CHECK(graph.GetInitializer("W_scale")->shape() == TensorShape({3}));
  CHECK(graph.GetInitializer("W_zero_point")->shape() == TensorShape({3}));
  const Node* weight = graph.Producer("W_dequantized");
  REQUIRE(weight->FindAttribute("axis") != nullptr);
  CHECK(weight->FindAttribute("axis")->i == 0);
  CHECK(graph.GetInitializer("B_scale")->shape() == TensorShape({3}));
  CHECK(graph.Producer("B_dequantized")->FindAttribute("axis")->i == 0);
  const float x_scale = graph.GetInitializer("x_scale")->Data<float>()[0];
  for (int c = 0; c < 3; ++c) {
    CHECK(graph.GetInitializer("B_scale")->Data<float>()[c] ==
          Approx(x_scale * graph.GetInitializer("W_scale")->Data<float>()[c]));
  }
  const auto set = UniformSets("x", {1, 2, 6, 6}, 1)[0];
  const auto expected = RunModel(*ConvReluPoolModel(), set);
  CHECK(Cosine(expected, RunModel(*model, set)) > 0.999);
}

TEST_CASE("Symmetric activations and uint8 weights change the stored types", "[quantization]") {
  QuantizeOptions options;
  options.symmetric_activations = true;
  options.weight_type = DataType::kUint8;
  const auto model = Quantized(options, UniformSets("x", {1, 2, 6, 6}, 2));
  const Graph& graph = model->graph();
  CHECK(graph.GetInitializer("x_zero_point")->dtype() == DataType::kInt8);
  CHECK(graph.GetInitializer("x_zero_point")->Data<int8_t>()[0] == 0);
  CHECK(graph.GetInitializer("W_quantized")->dtype() == DataType::kUint8);
  const auto set = UniformSets("x", {1, 2, 6, 6}, 1)[0];
  CHECK(Cosine(RunModel(*ConvReluPoolModel(), set), RunModel(*model, set)) > 0.99);
}

TEST_CASE("Op-type filtering and excluded nodes leave nodes in float", "[quantization]") {
  const auto sets = UniformSets("x", {1, 2, 6, 6}, 2);
  SECTION("only Conv: its own output is quantized, the Relu is not absorbed") {
    QuantizeOptions options;
    options.op_types = {"Conv"};
    std::vector<OpTypeCount> counts;
    const auto model = Quantized(options, sets, &counts);
    const Graph& graph = model->graph();
    CHECK(graph.Producer("conv_out_dequantized") != nullptr);
    CHECK(graph.Producer("relu_out_dequantized") == nullptr);
    CHECK(CountOps(graph, "QuantizeLinear") == 2);
    CHECK(CountOf(counts, "Relu").left_float == 1);
    CHECK(CountOf(counts, "MaxPool").left_float == 1);
  }
  SECTION("the Conv excluded: the rest has no quantized input to start from but the pooling") {
    QuantizeOptions options;
    options.excluded_nodes = {"conv"};
    std::vector<OpTypeCount> counts;
    const auto model = Quantized(options, sets, &counts);
    const Graph& graph = model->graph();
    CHECK(graph.GetInitializer("W") != nullptr);
    CHECK(graph.GetInitializer("W_quantized") == nullptr);
    CHECK(CountOf(counts, "Conv").left_float == 1);
    CHECK(CountOf(counts, "Relu").left_float == 1);
    CHECK(CountOf(counts, "MaxPool").left_float == 1);
    CHECK(CountOf(counts, "GlobalAveragePool").quantized == 1);
    CHECK(graph.Producer("pool_out_dequantized") != nullptr);
  }
  SECTION("errors name the op type or node") {
    auto model = ConvReluPoolModel();
    QuantizeOptions options;
    options.op_types = {"Conv", "Softmax"};
    auto result = QuantizeModel(*model, options, sets, CpuSessions());
    REQUIRE_FALSE(result.ok());
    CHECK(result.status().message().find("'Softmax' cannot be quantized") != std::string::npos);
    options.op_types = {};
    options.excluded_nodes = {"no_such_node"};
    result = QuantizeModel(*model, options, sets, CpuSessions());
    REQUIRE_FALSE(result.ok());
    CHECK(result.status().message().find("'no_such_node'") != std::string::npos);
  }
}

TEST_CASE("Per-channel weights need opset 13", "[quantization]") {
  Model model = MakeModel(12);
  model.graph().RestoreFrom(ConvReluPoolModel()->graph().Clone());
  model.opsets()[""] = 12;
  QuantizeOptions options;
  options.per_channel = true;
  auto result = QuantizeModel(model, options, UniformSets("x", {1, 2, 6, 6}, 1), CpuSessions());
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().message().find("opset 13") != std::string::npos);
}

TEST_CASE("A MatMul with a constant weight and an Add with a constant are quantized",
          "[quantization]") {
  auto model = MatMulModel(/*bias=*/true);
  QuantizeOptions options;
  options.per_channel = true;
  const auto sets = UniformSets("x", {2, 4}, 3);
  auto result = QuantizeModel(*model, options, sets, CpuSessions());
  INFO(result.status().ToString());
  REQUIRE(result.ok());
  const Graph& graph = model->graph();
  CHECK(graph.Producer("W_dequantized")->FindAttribute("axis")->i == 1);
  CHECK(graph.GetInitializer("W_scale")->shape() == TensorShape({3}));
  CHECK(graph.GetInitializer("bias_quantized")->dtype() == DataType::kUint8);
  CHECK(graph.Producer("y")->inputs() ==
        std::vector<std::string>{"product_dequantized", "bias_dequantized"});
  const auto expected = RunModel(*MatMulModel(true), sets[0]);
  const auto actual = RunModel(*model, sets[0]);
  for (size_t i = 0; i < expected.size(); ++i) CHECK(actual[i] == Approx(expected[i]).margin(0.05));
}

}  // namespace
}  // namespace ort::test
