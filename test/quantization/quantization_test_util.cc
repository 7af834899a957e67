#include "test/quantization/quantization_test_util.h"

namespace ort::test {

std::unique_ptr<Model> Typed(const Model& model) {
  auto reloaded = ReloadModel(model);
  INFO(reloaded.status().ToString());
  REQUIRE(reloaded.ok());
  return std::move(reloaded).value();
}

SessionFactory CpuSessions() {
  return [](std::unique_ptr<Model> model) -> Result<std::unique_ptr<InferenceSession>> {
    return MakeCpuSession(std::move(model));
  };
}

std::unique_ptr<Model> ConvReluPoolModel() {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.SetValueType("x", FloatTensor({1, 2, 6, 6}));
  graph.AddInitializer("W", RandomTensor({3, 2, 3, 3}, 1, -1.0f, 1.0f));
  graph.AddInitializer("B", RandomTensor({3}, 2, -0.5f, 0.5f));
  Node& conv = graph.AddNode({"conv", "Conv", "", {"x", "W", "B"}, {"conv_out"}, {}});
  conv.SetAttribute(Attribute::Ints("pads", {1, 1, 1, 1}));
  graph.AddNode({"relu", "Relu", "", {"conv_out"}, {"relu_out"}, {}});
  Node& pool = graph.AddNode({"pool", "MaxPool", "", {"relu_out"}, {"pool_out"}, {}});
  pool.SetAttribute(Attribute::Ints("kernel_shape", {2, 2}));
  pool.SetAttribute(Attribute::Ints("strides", {2, 2}));
  graph.AddNode({"gap", "GlobalAveragePool", "", {"pool_out"}, {"y"}, {}});
  graph.set_outputs({"y"});
  graph.SetValueType("y", FloatTensor({1, 3, 1, 1}));
  return Typed(model);
}

std::unique_ptr<Model> MatMulModel(bool bias) {
  Model model = MakeModel(13);
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.SetValueType("x", FloatTensor({2, 4}));
  graph.AddInitializer("W", RandomTensor({4, 3}, 3, -1.0f, 1.0f));
  graph.AddNode({"matmul", "MatMul", "", {"x", "W"}, {bias ? "product" : "y"}, {}});
  if (bias) {
    graph.AddInitializer("bias", RandomTensor({3}, 4, -1.0f, 1.0f));
    graph.AddNode({"add", "Add", "", {"product", "bias"}, {"y"}, {}});
  }
  graph.set_outputs({"y"});
  graph.SetValueType("y", FloatTensor({2, 3}));
  return Typed(model);
}

std::vector<CalibrationSet> UniformSets(const std::string& name, std::vector<int64_t> dims,
                                        int count, float low, float high) {
  std::vector<CalibrationSet> sets;
  for (int i = 0; i < count; ++i) {
    sets.push_back({{name, Value(RandomTensor(dims, 100 + static_cast<uint32_t>(i), low, high))}});
  }
  return sets;
}

std::vector<float> RunModel(const Model& model, const CalibrationSet& feeds) {
  auto session = MakeCpuSession(Typed(model));
  std::vector<Value> outputs;
  const Status ran = session->Run({}, feeds, {}, &outputs);
  INFO(ran.ToString());
  REQUIRE(ran.ok());
  auto values = outputs[0].tensor().Span<float>();
  return {values.begin(), values.end()};
}

size_t ExecutedOps(const Model& model, std::string_view op_type) {
  auto session = MakeCpuSession(Typed(model));
  size_t count = 0;
  for (const Node* node : session->ExecutionOrder()) count += node->op_type() == op_type;
  return count;
}

}  // namespace ort::test
