// Rewrite rules: a local pattern (a condition on a node and its neighbours) and the rewrite that
// replaces it. A RuleBasedTransformer holds the rules of one level and applies them node by
// node, in topological order, until a sweep fires none (bounded).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lib/optimizer/graph_transformer.h"

namespace ort {

class RewriteRule {
 public:
  /// `op_types`: the ai.onnx (or `domain`) op types whose nodes the rule looks at; `made`: see
  /// made().
  RewriteRule(std::string name, std::vector<std::string> op_types, std::string domain = "",
              std::vector<MadeOp> made = {})
      : name_(std::move(name)),
        op_types_(std::move(op_types)),
        domain_(std::move(domain)),
        made_(std::move(made)) {}
  virtual ~RewriteRule() = default;

  const std::string& name() const { return name_; }
  const std::vector<std::string>& op_types() const { return op_types_; }
  const std::string& domain() const { return domain_; }
  /// The ops the rule makes that only some providers run (a com.microsoft fused op): the rule
  /// fires only when the session's preferred provider serves them (ProviderServes). Empty for
  /// rewrites into ops every provider runs.
  const std::vector<MadeOp>& made() const { return made_; }

  /// True when the pattern rooted at `node` is present and safe to rewrite.
  virtual bool Matches(const Graph& graph, const Node& node) const = 0;
  /// Rewrites a matched pattern; sets `node_removed` when `node` itself is gone.
  virtual Status Rewrite(Graph& graph, Node& node, bool& node_removed) const = 0;

 private:
  std::string name_;
  std::vector<std::string> op_types_;
  std::string domain_;
  std::vector<MadeOp> made_;
};

class RuleBasedTransformer final : public GraphTransformer {
 public:
  RuleBasedTransformer(std::string name, OptimizationLevel level,
                       std::vector<std::unique_ptr<RewriteRule>> rules);

  /// True when at least one rule serves the preferred provider.
  bool ServesPreferred(std::span<IExecutionProvider* const> registered) const override;
  std::vector<std::string> RuleNames() const override;
  Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const override;

 private:
  std::vector<std::unique_ptr<RewriteRule>> rules_;
};

}  // namespace ort
