// The one home of the optimizer and session tests' helpers: building small models, running the
// optimizer at a level (with or without the CPU provider), reading what it left, and running a
// model on the CPU provider to compare outputs before and after.
#pragma once

#include <catch2/catch.hpp>

#include <spdlog/sinks/ostream_sink.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ir/model.h"
#include "lib/optimizer/graph_optimizer.h"
#include "lib/session/inference_session.h"

namespace ort::test {

using Ops = std::vector<std::string>;

/// A float tensor type of known `dims`.
ValueType FloatTensor(std::vector<int64_t> dims);

/// A model importing ai.onnx `opset`, whose graph tests fill in.
Model MakeModel(int64_t opset = 14);

/// Adds the int64 initializer `name` = `values` (1-D) to `graph` and returns its name.
std::string Ints(Graph& graph, const std::string& name, std::vector<int64_t> values);

/// A float tensor of `dims` with values drawn uniformly from [low, high) by a generator seeded
/// with `seed`.
Tensor RandomTensor(std::vector<int64_t> dims, uint32_t seed, float low = -2.0f, float high = 2.0f);

/// Runs the basic level with only `disabled` turned off and no provider registered. Like every
/// helper here, it runs the optimizer in strict mode: a pass that breaks the graph fails the test
/// instead of being rolled back.
void OptimizeBasic(Model& model, std::set<std::string> disabled = {});

/// Runs every level up to `level` for a CPU session with `disabled` turned off (the extended
/// fusions serve only providers with the contrib kernels; constant folding evaluates on it).
void OptimizeForCpu(Model& model, OptimizationLevel level, std::set<std::string> disabled = {});

inline void OptimizeExtended(Model& model, std::set<std::string> disabled = {}) {
  OptimizeForCpu(model, OptimizationLevel::kExtended, std::move(disabled));
}

inline void OptimizeAll(Model& model, std::set<std::string> disabled = {}) {
  OptimizeForCpu(model, OptimizationLevel::kAll, std::move(disabled));
}

/// The op types of the graph's nodes in topological order.
Ops OpTypes(const Graph& graph);

/// Adds node "if": `output` = If(`condition`) of the two branches, and resolves the graph's
/// outer-scope reads.
void AddIf(Graph& graph, const std::string& condition, std::unique_ptr<Graph> then_branch,
           std::unique_ptr<Graph> else_branch, const std::string& output);

/// How many nodes of `op_type` the graph holds.
size_t CountOps(const Graph& graph, std::string_view op_type);

/// A session with the CPU provider registered that has loaded and initialized `model` (with
/// SessionOptions::strict_optimizer set).
std::unique_ptr<InferenceSession> MakeCpuSession(std::unique_ptr<Model> model,
                                                 SessionOptions options = {});

/// What a CPU session made of a model: output 0 and the op types of the nodes it executed.
struct CpuRun {
  std::vector<float> output;
  Ops executed;
};

/// Runs `model` at `level` on the CPU provider with `feeds`.
CpuRun RunOnCpu(Model model, OptimizationLevel level, const std::vector<NamedValue>& feeds);

/// Checks `actual` against `expected` element by element within `margin` and `epsilon`.
void CheckClose(const std::vector<float>& actual, const std::vector<float>& expected, double margin,
                double epsilon);

/// Checks that `level` optimizes `build`'s model to `fused_nodes` executed nodes, fewer than the
/// unoptimized model runs, and that its output matches the unoptimized one within `tolerance`.
void CheckSameOutputs(const std::function<Model()>& build, const std::vector<NamedValue>& feeds,
                      size_t fused_nodes, float tolerance = 1e-5f,
                      OptimizationLevel level = OptimizationLevel::kExtended);

/// An empty directory `name` under the system's temporary directory (emptied if it existed).
std::filesystem::path TempDirectory(const std::string& name);

/// out = a + b with a declared [batch, 3] and b a constant [10, 20, 30].
std::unique_ptr<Model> BatchedAddModel();

/// Collects the warnings the engine's logger prints while it lives (they still go to stderr).
class WarningCapture {
 public:
  WarningCapture();
  ~WarningCapture();
  WarningCapture(const WarningCapture&) = delete;
  WarningCapture& operator=(const WarningCapture&) = delete;

  /// The warnings so far, one message each.
  std::vector<std::string> warnings() const;

 private:
  std::ostringstream stream_;
  std::shared_ptr<spdlog::sinks::ostream_sink_st> sink_;
};

}  // namespace ort::test
