// Optimizer pass interface. A pass rewrites a graph in place and reports whether it changed it;
// it recurses into subgraphs itself (ApplyToSubgraphs helps).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/framework/execution_provider.h"
#include "lib/ir/graph.h"
#include "lib/session/session_options.h"

namespace ort {

/// What a pass may use: the providers the session will run with (constant folding evaluates
/// nodes with the CPU provider's kernels).
struct OptimizerContext {
  std::span<IExecutionProvider* const> providers;
};

class GraphTransformer {
 public:
  GraphTransformer(std::string name, OptimizationLevel level)
      : name_(std::move(name)), level_(level) {}
  virtual ~GraphTransformer() = default;

  const std::string& name() const { return name_; }
  OptimizationLevel level() const { return level_; }

  /// Rewrites `graph`; sets `changed` when anything changed.
  virtual Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const = 0;

 protected:
  /// Applies this pass to every subgraph of every node of `graph`.
  Status ApplyToSubgraphs(Graph& graph, const OptimizerContext& context, bool& changed) const;

 private:
  std::string name_;
  OptimizationLevel level_;
};

}  // namespace ort
