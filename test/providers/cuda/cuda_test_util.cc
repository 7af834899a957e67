#include "test/providers/cuda/cuda_test_util.h"

#include <catch2/catch.hpp>

#include "lib/ir/model.h"
#include "lib/session/inference_session.h"
#include "providers/cpu/cpu_provider.h"
#include "providers/cuda/cuda_provider.h"

namespace ort {

// Runs one node on the CUDA provider (CPU as fallback) and returns its output; every node of
// the model must land on the GPU.
Tensor RunOneNode(const std::string& op, std::vector<std::pair<std::string, Tensor>> inputs,
                  std::vector<Attribute> attributes, int opset) {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = opset;
  model->opsets()["com.microsoft"] = 1;
  const size_t colon = op.find(':');
  const std::string domain = colon == std::string::npos ? "" : op.substr(0, colon);
  const std::string op_type = colon == std::string::npos ? op : op.substr(colon + 1);
  Graph& graph = model->graph();
  std::vector<std::string> names;
  for (const auto& [name, tensor] : inputs) {
    names.push_back(name);
    std::vector<Dimension> dims;
    for (int64_t d : tensor.shape().dims()) dims.push_back(Dimension::Known(d));
    graph.SetValueType(name, ValueType::Tensor(tensor.dtype(), SymbolicShape(dims)));
  }
  graph.set_inputs(names);
  graph.set_outputs({"y"});
  graph.AddNode({"node", op_type, domain, names, {"y"}, std::move(attributes)});
  graph.ResolveOuterScope();
  InferenceSession session;
  auto cuda = CreateCudaProvider({});
  REQUIRE(cuda.ok());
  REQUIRE(session.RegisterProvider(std::move(cuda).value()).ok());
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(std::move(model)).ok());
  REQUIRE(session.Initialize().ToString() == "OK");
  for (const Node* node : session.ExecutionOrder()) CHECK(node->provider() == "cuda");
  std::vector<NamedValue> feeds;
  for (auto& [name, tensor] : inputs) feeds.emplace_back(name, Value(tensor));
  std::vector<Value> outputs;
  REQUIRE(session.Run(RunOptions{}, feeds, {}, &outputs).ToString() == "OK");
  return outputs[0].tensor();
}

bool HasGpu() {
  CudaExecutionProvider probe;
  if (!probe.device_available()) WARN("no usable CUDA device: " << probe.device_error());
  return probe.device_available();
}

}  // namespace ort
