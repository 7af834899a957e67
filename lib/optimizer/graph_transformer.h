// Optimizer pass interface. A pass rewrites a graph in place and reports whether it changed it;
// it recurses into subgraphs itself (ApplyToSubgraphs helps). Local patterns are written as
// rewrite rules instead (rewrite_rule.h) and grouped in a rule-based transformer.
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/framework/execution_provider.h"
#include "lib/ir/graph.h"
#include "lib/session/session_options.h"

namespace ort {

/// What a pass may use: the providers the session will run with (constant folding evaluates
/// nodes with the CPU provider's kernels) and the passes and rules the user turned off.
struct OptimizerContext {
  std::span<IExecutionProvider* const> providers;
  const std::set<std::string>* disabled = nullptr;
  /// When set (only while the driver is observed), rule-based passes count each rule's fires
  /// here by rule name.
  std::map<std::string, int>* rule_fires = nullptr;

  bool IsDisabled(const std::string& name) const {
    return disabled != nullptr && disabled->count(name) > 0;
  }
};

class GraphTransformer {
 public:
  /// `providers`: the provider types whose kernels the pass's output needs (a fused op only the
  /// CPU provider implements); the pass runs only when the highest-priority registered provider
  /// is one of them, so that a device provider keeps the plain ops it can run. Empty for
  /// semantics-preserving passes that serve every provider.
  GraphTransformer(std::string name, OptimizationLevel level,
                   std::vector<std::string> providers = {})
      : name_(std::move(name)), level_(level), providers_(std::move(providers)) {}
  virtual ~GraphTransformer() = default;

  const std::string& name() const { return name_; }
  OptimizationLevel level() const { return level_; }
  const std::vector<std::string>& providers() const { return providers_; }
  /// True when the pass serves the first of `registered` (always, without a provider list).
  bool ServesPreferred(std::span<IExecutionProvider* const> registered) const;
  /// Names of the rules inside the pass, which users may disable one by one.
  virtual std::vector<std::string> RuleNames() const { return {}; }

  /// Rewrites `graph`; sets `changed` when anything changed.
  virtual Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const = 0;

 protected:
  /// Applies this pass to every subgraph of every node of `graph`.
  Status ApplyToSubgraphs(Graph& graph, const OptimizerContext& context, bool& changed) const;

 private:
  std::string name_;
  OptimizationLevel level_;
  std::vector<std::string> providers_;
};

}  // namespace ort
