// Shared by the extended-level fusion tests: running the extended level with the CPU provider
// registered (the fusions serve only providers with the contrib kernels), and running a model
// unfused and fused to compare outputs.
#pragma once

#include <functional>
#include <random>

#include "lib/session/inference_session.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {

/// Runs the basic and extended levels for a CPU session with `disabled` turned off.
inline void OptimizeExtended(Model& model, std::set<std::string> disabled = {}) {
  model.graph().ResolveOuterScope();
  CpuExecutionProvider cpu;
  IExecutionProvider* providers[] = {&cpu};
  const Status status =
      OptimizeGraph(model, {OptimizationLevel::kExtended, std::move(disabled)}, providers);
  INFO(status.ToString());
  REQUIRE(status.ok());
}

/// How many nodes of `op_type` the graph holds.
inline size_t CountOps(const Graph& graph, std::string_view op_type) {
  size_t count = 0;
  for (const Node* node : graph.Nodes()) count += node->op_type() == op_type ? 1 : 0;
  return count;
}

inline Tensor RandomTensor(std::vector<int64_t> dims, uint32_t seed, float low = -2.0f,
                           float high = 2.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(low, high);
  std::vector<float> values(static_cast<size_t>(TensorShape(dims).NumElements()));
  for (float& value : values) value = uniform(rng);
  return Tensor::FromVector<float>(TensorShape(std::move(dims)), std::span<const float>(values));
}

/// Runs the model `build` makes at `level` on the CPU provider with `feeds`; returns output 0
/// and the number of nodes executed.
inline std::pair<std::vector<float>, size_t> RunAt(const std::function<Model()>& build,
                                                   OptimizationLevel level,
                                                   const std::vector<NamedValue>& feeds) {
  SessionOptions options;
  options.optimization_level = level;
  InferenceSession session(options);
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  Model model = build();
  model.graph().ResolveOuterScope();
  REQUIRE(session.Load(std::make_unique<Model>(std::move(model))).ok());
  const Status initialized = session.Initialize();
  INFO(initialized.ToString());
  REQUIRE(initialized.ok());
  std::vector<Value> outputs;
  const Status ran = session.Run({}, feeds, {}, &outputs);
  INFO(ran.ToString());
  REQUIRE(ran.ok());
  auto span = outputs[0].tensor().Span<float>();
  return {std::vector<float>(span.begin(), span.end()), session.ExecutionOrder().size()};
}

/// Checks that the extended level fuses `build`'s model to `fused_nodes` nodes and that its
/// output matches the unoptimized model's within `tolerance`.
inline void CheckSameOutputs(const std::function<Model()>& build,
                             const std::vector<NamedValue>& feeds, size_t fused_nodes,
                             float tolerance = 1e-5f) {
  const auto [plain, plain_nodes] = RunAt(build, OptimizationLevel::kDisable, feeds);
  const auto [fused, executed] = RunAt(build, OptimizationLevel::kExtended, feeds);
  CHECK(executed == fused_nodes);
  CHECK(plain_nodes > executed);
  REQUIRE(fused.size() == plain.size());
  for (size_t i = 0; i < plain.size(); ++i) {
    INFO(i);
    CHECK(fused[i] == Approx(plain[i]).margin(tolerance).epsilon(tolerance));
  }
}

}  // namespace ort::test
