#include "test/providers/cuda/cuda_test_util.h"

#include <catch2/catch.hpp>

#include "lib/session/inference_session.h"
#include "lib/session/partitioner.h"

namespace ort {

ValueType KnownTensorType(DataType type, const std::vector<int64_t>& dims) {
  std::vector<Dimension> known;
  for (int64_t d : dims) known.push_back(Dimension::Known(d));
  return ValueType::Tensor(type, SymbolicShape(known));
}

std::unique_ptr<Model> EmptyModel(int opset) {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = opset;
  model->opsets()["com.microsoft"] = 1;
  return model;
}

std::unique_ptr<Model> OneNodeModel(const std::string& op, const NamedTensors& inputs,
                                    std::vector<Attribute> attributes,
                                    const std::vector<std::string>& outputs, int opset) {
  auto model = EmptyModel(opset);
  const size_t colon = op.find(':');
  const std::string domain = colon == std::string::npos ? "" : op.substr(0, colon);
  const std::string op_type = colon == std::string::npos ? op : op.substr(colon + 1);
  Graph& graph = model->graph();
  std::vector<std::string> node_inputs, graph_inputs;
  for (const auto& [name, tensor] : inputs) {
    node_inputs.push_back(name);
    if (name.empty()) continue;
    graph_inputs.push_back(name);
    graph.SetValueType(name, KnownTensorType(tensor.dtype(), tensor.shape().dims()));
  }
  graph.set_inputs(graph_inputs);
  graph.set_outputs(outputs);
  graph.AddNode({"node", op_type, domain, node_inputs, outputs, std::move(attributes)});
  graph.ResolveOuterScope();
  return model;
}

Status RunOnCuda(std::unique_ptr<Model> model, const NamedTensors& feeds,
                 std::vector<Value>* outputs) {
  InferenceSession session;
  auto cuda = CreateCudaProvider({});
  REQUIRE(cuda.ok());
  REQUIRE(session.RegisterProvider(std::move(cuda).value()).ok());
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(std::move(model)).ok());
  REQUIRE(session.Initialize().ToString() == "OK");
  for (const Node* node : session.ExecutionOrder()) CHECK(node->provider() == "cuda");
  std::vector<NamedValue> values;
  for (const auto& [name, tensor] : feeds) {
    if (!name.empty()) values.emplace_back(name, Value(tensor));
  }
  return session.Run(RunOptions{}, values, {}, outputs);
}

Tensor RunOneNode(const std::string& op, NamedTensors inputs, std::vector<Attribute> attributes,
                  int opset) {
  std::vector<Value> outputs;
  REQUIRE(RunOnCuda(OneNodeModel(op, inputs, std::move(attributes), {"one_node_output"}, opset),
                    inputs, &outputs)
              .ToString() == "OK");
  return outputs[0].tensor();
}

void PartitionOnCuda(Graph& graph, CudaWithCpuFallback* providers) {
  std::unique_ptr<CudaWithCpuFallback> fresh;
  if (providers == nullptr) {
    fresh = std::make_unique<CudaWithCpuFallback>();
    providers = fresh.get();
  }
  graph.ResolveOuterScope();
  REQUIRE(PartitionGraph(graph, providers->providers()).ok());
}

void CheckOnGpu(const Graph& graph, const std::function<bool(const Node&)>& on_gpu) {
  for (const Node* node : graph.Nodes()) {
    INFO(node->name() << " (" << node->op_type() << ")");
    CHECK(node->provider() == (on_gpu(*node) ? "cuda" : "cpu"));
  }
}

bool HasGpu() {
  CudaExecutionProvider probe;
  if (!probe.device_available()) WARN("no usable CUDA device: " << probe.device_error());
  return probe.device_available();
}

}  // namespace ort
