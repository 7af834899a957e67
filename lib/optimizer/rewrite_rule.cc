#include "lib/optimizer/rewrite_rule.h"

#include <algorithm>

namespace ort {
namespace {

// Sweeps over the graph until no rule fires, at most this many; each sweep that fires shrinks
// or simplifies the graph, so real models settle in a few.
constexpr int kMaxSweeps = 16;

bool RuleServesPreferred(const RewriteRule& rule, std::span<IExecutionProvider* const> registered) {
  if (rule.made().empty()) return true;
  return !registered.empty() && ProviderServes(*registered.front(), rule.name(), rule.made());
}

bool Targets(const RewriteRule& rule, const Node& node) {
  if (node.domain() != rule.domain()) return false;
  const auto& ops = rule.op_types();
  return std::find(ops.begin(), ops.end(), node.op_type()) != ops.end();
}

}  // namespace

RuleBasedTransformer::RuleBasedTransformer(std::string name, OptimizationLevel level,
                                           std::vector<std::unique_ptr<RewriteRule>> rules)
    : GraphTransformer(std::move(name), level), rules_(std::move(rules)) {}

bool RuleBasedTransformer::ServesPreferred(std::span<IExecutionProvider* const> registered) const {
  return std::any_of(rules_.begin(), rules_.end(), [registered](const auto& rule) {
    return RuleServesPreferred(*rule, registered);
  });
}

std::vector<std::string> RuleBasedTransformer::RuleNames() const {
  std::vector<std::string> names;
  for (const auto& rule : rules_) names.push_back(rule->name());
  return names;
}

Status RuleBasedTransformer::Apply(Graph& graph, const OptimizerContext& context,
                                   bool& changed) const {
  std::vector<const RewriteRule*> active;
  for (const auto& rule : rules_) {
    if (RuleServesPreferred(*rule, context.providers) && !context.IsDisabled(rule->name())) {
      active.push_back(rule.get());
    }
  }
  for (int sweep = 0; sweep < kMaxSweeps && !active.empty(); ++sweep) {
    bool fired = false;
    ORT_ASSIGN_OR_RETURN(std::vector<NodeIndex> order, graph.TopologicalOrder());
    for (NodeIndex index : order) {
      for (const RewriteRule* rule : active) {
        Node* node = graph.GetNode(index);
        if (node == nullptr) break;  // removed by an earlier rule
        if (!Targets(*rule, *node)) continue;
        if (!rule->Matches(graph, *node)) continue;
        const std::string described = node->Describe();
        bool removed = false;
        Status status = rule->Rewrite(graph, *node, removed);
        if (context.check_rewrite) status = context.check_rewrite(rule->name(), described, status);
        if (!status.ok()) return status.WithContext("rule '" + rule->name() + "' on " + described);
        fired = true;
        if (context.rule_fires != nullptr) ++(*context.rule_fires)[rule->name()];
        if (removed) break;
      }
    }
    if (!fired) break;
    changed = true;
  }
  return ApplyToSubgraphs(graph, context, changed);
}

}  // namespace ort
