// Optimizer pass interface. A pass rewrites a graph in place and reports whether it changed it;
// it recurses into subgraphs itself (ApplyToSubgraphs helps). Local patterns are written as
// rewrite rules instead (rewrite_rule.h) and grouped in a rule-based transformer.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/status.h"
#include "lib/framework/execution_provider.h"
#include "lib/ir/graph.h"
#include "lib/optimizer/optimization_level.h"

namespace ort {

/// What a pass may use: the providers the session will run with (constant folding evaluates
/// nodes with the fallback provider's kernels) and the passes and rules the user turned off.
struct OptimizerContext {
  std::span<IExecutionProvider* const> providers;
  const std::set<std::string>* disabled = nullptr;
  /// When set (only while the driver is observed), rule-based passes count each rule's fires
  /// here by rule name.
  std::map<std::string, int>* rule_fires = nullptr;
  /// When set, rule-based passes pass the status of every rewrite through it, with the rule and
  /// the node the rewrite was rooted at (described before the rewrite), and stop with what it
  /// returns when that is an error: the driver learns which rewrite failed, and validates the
  /// graph after each rewrite while it looks for the rule that broke it.
  std::function<Status(const std::string& rule, const std::string& node, Status rewrite)>
      check_rewrite;

  bool IsDisabled(const std::string& name) const {
    return disabled != nullptr && disabled->count(name) > 0;
  }
};

/// An op that a rewrite makes and that only some providers run (a com.microsoft fusion, an NCHWc
/// layout op).
struct MadeOp {
  std::string domain;
  std::string op_type;
};

/// True when `provider` has kernels for every op in `made` and accepts the rewrite `name`
/// (IExecutionProvider::AcceptsRewrite): the providers, not the optimizer, say what they run.
bool ProviderServes(const IExecutionProvider& provider, std::string_view name,
                    std::span<const MadeOp> made);

class GraphTransformer {
 public:
  /// `made`: the ops the pass makes that only some providers run; the pass runs only when the
  /// highest-priority registered provider serves them (ProviderServes), so that a device
  /// provider keeps the plain ops it can run. Empty for passes every provider is served by.
  GraphTransformer(std::string name, OptimizationLevel level, std::vector<MadeOp> made = {})
      : name_(std::move(name)), level_(level), made_(std::move(made)) {}
  virtual ~GraphTransformer() = default;

  const std::string& name() const { return name_; }
  OptimizationLevel level() const { return level_; }
  /// True when the pass serves the first of `registered` (always, when it makes no op that
  /// needs a provider's kernels).
  virtual bool ServesPreferred(std::span<IExecutionProvider* const> registered) const;
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
  std::vector<MadeOp> made_;
};

}  // namespace ort
