// Dynamic quantization: MatMul and Gemm become DynamicQuantizeLinear -> MatMulInteger -> Cast ->
// Mul (-> Add) with int8 weights, and run close to the float model.
#include "lib/quantization/quantizer.h"
#include "test/quantization/quantization_test_util.h"

namespace ort::test {
namespace {

QuantizeOptions Dynamic() {
  QuantizeOptions options;
  options.mode = QuantizationMode::kDynamic;
  return options;
}

void CheckClose(const Model& reference, const Model& quantized, const std::string& input,
                std::vector<int64_t> dims) {
  for (const auto& set : UniformSets(input, std::move(dims), 3)) {
    const auto expected = RunModel(reference, set);
    const auto actual = RunModel(quantized, set);
    REQUIRE(actual.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      CHECK(actual[i] == Approx(expected[i]).margin(0.05));
    }
  }
}

TEST_CASE("Dynamic quantization rewrites a MatMul with integer ops", "[quantization]") {
  auto model = MatMulModel(/*bias=*/false);
  auto counts = QuantizeModel(*model, Dynamic(), {}, CpuSessions());
  INFO(counts.status().ToString());
  REQUIRE(counts.ok());
  REQUIRE(counts->size() == 1);
  CHECK((*counts)[0].op_type == "MatMul");
  CHECK((*counts)[0].quantized == 1);

  const Graph& graph = model->graph();
  CHECK(OpTypes(graph) == Ops{"DynamicQuantizeLinear", "MatMulInteger", "Cast", "Mul", "Mul"});
  const Node* integer = graph.Producer("y_MatMulInteger");
  REQUIRE(integer != nullptr);
  CHECK(integer->inputs() ==
        std::vector<std::string>{"x_quantized", "W_quantized", "x_zero_point", "W_zero_point"});
  CHECK(graph.GetInitializer("W") == nullptr);
  CHECK(graph.GetInitializer("W_quantized")->dtype() == DataType::kInt8);
  CHECK(graph.GetInitializer("W_scale")->shape().rank() == 0);
  CHECK(graph.Producer("y")->inputs() == std::vector<std::string>{"y_cast", "y_scales"});
  CHECK(graph.Producer("y_scales")->inputs() == std::vector<std::string>{"x_scale", "W_scale"});
  CheckClose(*MatMulModel(false), *model, "x", {2, 4});
}

TEST_CASE("Dynamic quantization of a Gemm transposes its weight and adds its bias",
          "[quantization]") {
  Model built = MakeModel(13);
  Graph& graph = built.graph();
  graph.set_inputs({"x"});
  graph.SetValueType("x", FloatTensor({2, 4}));
  graph.AddInitializer("W", RandomTensor({3, 4}, 5, -1.0f, 1.0f));
  graph.AddInitializer("C", RandomTensor({3}, 6, -1.0f, 1.0f));
  Node& gemm = graph.AddNode({"gemm", "Gemm", "", {"x", "W", "C"}, {"y"}, {}});
  gemm.SetAttribute(Attribute::Int("transB", 1));
  graph.set_outputs({"y"});
  graph.SetValueType("y", FloatTensor({2, 3}));
  const auto reference = Typed(built);
  auto model = Typed(built);

  QuantizeOptions options = Dynamic();
  options.per_channel = true;
  auto counts = QuantizeModel(*model, options, {}, CpuSessions());
  INFO(counts.status().ToString());
  REQUIRE(counts.ok());
  const Graph& quantized = model->graph();
  CHECK(CountOps(quantized, "Gemm") == 0);
  CHECK(quantized.GetInitializer("W_quantized")->shape() == TensorShape({4, 3}));
  CHECK(quantized.GetInitializer("W_scale")->shape() == TensorShape({3}));
  CHECK(quantized.GetInitializer("W_zero_point")->shape() == TensorShape({3}));
  CHECK(quantized.Producer("y")->op_type() == "Add");
  CHECK(quantized.Producer("y")->inputs()[1] == "C");
  CheckClose(*reference, *model, "x", {2, 4});
}

TEST_CASE("Dynamic mode quantizes only MatMul and Gemm", "[quantization]") {
  auto model = MatMulModel(false);
  QuantizeOptions options = Dynamic();
  options.op_types = {"Conv"};
  auto counts = QuantizeModel(*model, options, {}, CpuSessions());
  REQUIRE_FALSE(counts.ok());
  CHECK(counts.status().message().find("'Conv' cannot be quantized in dynamic mode") !=
        std::string::npos);
  options.op_types = {"MatMul"};
  options.excluded_nodes = {"matmul"};
  counts = QuantizeModel(*model, options, {}, CpuSessions());
  REQUIRE(counts.ok());
  CHECK((*counts)[0].left_float == 1);
  CHECK(CountOps(model->graph(), "MatMulInteger") == 0);
}

}  // namespace
}  // namespace ort::test
