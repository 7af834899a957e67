#include "lib/optimizer/graph_optimizer.h"

#include <algorithm>
#include <map>

#include <fmt/ranges.h>

#include "lib/common/logging.h"
#include "lib/ir/graph_validation.h"
#include "lib/onnx/model_loader.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

// A level is re-run while it keeps changing the graph, at most this many times.
constexpr int kMaxIterationsPerLevel = 10;

// Fused nodes may use a domain the original model did not import (com.microsoft); a saved model
// must import every domain its nodes use.
void ImportUsedDomains(const Graph& graph, OpsetMap& opsets) {
  for (const Node* node : graph.Nodes()) {
    if (!node->domain().empty() && opsets.count(node->domain()) == 0) opsets[node->domain()] = 1;
    for (const Graph* subgraph : node->Subgraphs()) ImportUsedDomains(*subgraph, opsets);
  }
}

// `rule`, firing only when the session prefers one of `providers` (those with kernels for the
// op it makes), as ONNX Runtime lists compatible providers per fusion.
std::unique_ptr<RewriteRule> ServedBy(std::unique_ptr<RewriteRule> rule,
                                      std::vector<std::string> providers) {
  rule->set_providers(std::move(providers));
  return rule;
}

const std::vector<std::string> kCpu = {"cpu"};
const std::vector<std::string> kCpuCuda = {"cpu", "cuda"};

}  // namespace

std::vector<std::unique_ptr<GraphTransformer>> BuiltInPasses() {
  std::vector<std::unique_ptr<RewriteRule>> basic_rules;
  basic_rules.push_back(CreateEliminateIdentityRule());
  basic_rules.push_back(CreateEliminateNoopRule());
  basic_rules.push_back(CreateEliminateUnsqueezeSqueezeRule());
  basic_rules.push_back(CreateMergeTransposesRule());
  basic_rules.push_back(CreateMergeReshapesRule());
  basic_rules.push_back(CreateFuseConvBatchNormRule());
  basic_rules.push_back(CreateFuseConvAddRule());
  basic_rules.push_back(CreateFuseConvMulRule());
  basic_rules.push_back(CreateFuseReluClipRule());
  basic_rules.push_back(CreateFuseHardSwishRule());
  basic_rules.push_back(CreateFuseMatMulAddIntoGemmRule());

  std::vector<std::unique_ptr<GraphTransformer>> passes;
  passes.push_back(std::make_unique<RuleBasedTransformer>(
      "basic_rewrites", OptimizationLevel::kBasic, std::move(basic_rules)));
  passes.push_back(CreateCommonSubexpressionElimination());
  passes.push_back(CreateConstantFolding());
  passes.push_back(CreateReshapeFusion());
  passes.push_back(CreateEliminateDeadNodes());

  // Extended level. Attention and EmbedLayerNormalization fusions look for LayerNormalization and
  // unscaled MatMuls, so the fusions that consume those run after them (onnxruntime's order).
  std::vector<std::unique_ptr<RewriteRule>> early_fusions;
  early_fusions.push_back(ServedBy(CreateFuseGeluRule(), kCpuCuda));
  early_fusions.push_back(ServedBy(CreateFuseFastGeluRule(), kCpuCuda));
  early_fusions.push_back(ServedBy(CreateFuseLayerNormRule(), kCpuCuda));
  early_fusions.push_back(ServedBy(CreateFuseConvActivationRule(), kCpuCuda));
  early_fusions.push_back(ServedBy(CreateFuseGemmActivationRule(), kCpu));
  passes.push_back(std::make_unique<RuleBasedTransformer>(
      "extended_fusions", OptimizationLevel::kExtended, std::move(early_fusions)));
  std::vector<std::unique_ptr<RewriteRule>> bert_fusions;
  bert_fusions.push_back(ServedBy(CreateFuseAttentionRule(), kCpuCuda));
  bert_fusions.push_back(ServedBy(CreateFuseEmbedLayerNormRule(), kCpuCuda));
  passes.push_back(std::make_unique<RuleBasedTransformer>(
      "bert_fusions", OptimizationLevel::kExtended, std::move(bert_fusions)));
  std::vector<std::unique_ptr<RewriteRule>> late_fusions;
  late_fusions.push_back(ServedBy(CreateFuseBiasGeluRule(), kCpuCuda));
  late_fusions.push_back(ServedBy(CreateFuseSkipLayerNormRule(), kCpuCuda));
  late_fusions.push_back(ServedBy(CreateFuseMatMulScaleTransposeRule(), kCpuCuda));
  passes.push_back(std::make_unique<RuleBasedTransformer>(
      "extended_late_fusions", OptimizationLevel::kExtended, std::move(late_fusions)));

  // All level. Conv + Add (+ activation) into FusedConv with Z, as onnxruntime does for its CPU
  // provider only; it runs before the layout passes of this level.
  std::vector<std::unique_ptr<RewriteRule>> all_fusions;
  all_fusions.push_back(CreateFuseConvAddActivationRule());
  passes.push_back(std::make_unique<RuleBasedTransformer>(
      "all_level_fusions", OptimizationLevel::kAll, std::move(all_fusions), kCpu));
  passes.push_back(CreateNchwcLayout());
  return passes;
}

std::vector<std::string> DisablePassNames() {
  std::vector<std::string> names;
  for (const auto& pass : BuiltInPasses()) {
    names.push_back(pass->name());
    for (auto& rule : pass->RuleNames()) names.push_back(std::move(rule));
  }
  std::sort(names.begin(), names.end());
  return names;
}

Status OptimizeGraph(Model& model, const OptimizerOptions& options,
                     std::span<IExecutionProvider* const> providers,
                     const OptimizerObserver& observer) {
  const std::vector<std::string> known = DisablePassNames();
  for (const auto& name : options.disabled_passes) {
    if (!std::binary_search(known.begin(), known.end(), name)) {
      return ORT_ERROR(kInvalidArgument, "cannot disable unknown optimizer pass '{}' (known: {})",
                       name, fmt::join(known, ", "));
    }
  }
  const OptimizationLevel level = options.level;
  if (level == OptimizationLevel::kDisable) return Status::OK();
  using Clock = std::chrono::steady_clock;
  const auto now = [&observer] { return observer ? Clock::now() : Clock::time_point(); };
  const auto passes = BuiltInPasses();
  std::map<std::string, int> rule_fires;
  std::vector<RuleFireCount> fired_rules;
  OptimizerContext context{providers, &options.disabled_passes, observer ? &rule_fires : nullptr};
  // Applies one pass, validates the graph when it changed and tells the observer.
  auto apply = [&](const GraphTransformer& pass, int iteration) -> Result<bool> {
    bool changed = false;
    rule_fires.clear();
    const Clock::time_point start = now();
    Status status = pass.Apply(model.graph(), context, changed);
    if (!status.ok()) return status.WithContext("optimizer pass '" + pass.name() + "'");
    if (changed) {
      model.graph().ResolveOuterScope();
      status = ValidateGraph(model.graph());
      if (!status.ok()) {
        return status.WithContext("graph invalid after optimizer pass '" + pass.name() + "'");
      }
      ORT_LOG_VERBOSE("optimizer pass '{}' changed the graph", pass.name());
    }
    if (observer) {
      const Clock::time_point end = Clock::now();
      fired_rules.clear();
      for (const auto& [rule, count] : rule_fires) fired_rules.push_back({rule, count});
      OptimizerStep step;
      step.name = pass.name();
      step.level = pass.level();
      step.iteration = iteration;
      step.changed = changed;
      step.start = start;
      step.end = end;
      step.rule_fires = fired_rules;
      observer(step);
    }
    return changed;
  };
  bool fused_above_basic = false;
  bool previous_level_changed = false;
  for (OptimizationLevel current :
       {OptimizationLevel::kBasic, OptimizationLevel::kExtended, OptimizationLevel::kAll}) {
    if (static_cast<int>(current) > static_cast<int>(level)) break;
    if (static_cast<int>(current) <= static_cast<int>(options.applied_level)) continue;
    // Folding shape arithmetic into constants lets shape inference reach values it could not at
    // load time (e.g. after BERT's position-id Slice); fusions above basic need those shapes.
    if (previous_level_changed) InferModelTypes(model);
    OptimizerStep level_step;
    level_step.kind = OptimizerStep::Kind::kLevel;
    level_step.name = OptimizationLevelName(current);
    level_step.level = current;
    level_step.start = now();
    for (int iteration = 0; iteration < kMaxIterationsPerLevel; ++iteration) {
      level_step.iteration = iteration + 1;
      bool level_changed = false;
      for (const auto& pass : passes) {
        if (pass->level() != current || context.IsDisabled(pass->name())) continue;
        if (!pass->ServesPreferred(providers)) continue;
        ORT_ASSIGN_OR_RETURN(bool changed, apply(*pass, iteration));
        level_changed = level_changed || changed;
      }
      level_step.changed = level_step.changed || level_changed;
      if (!level_changed) break;
    }
    fused_above_basic =
        fused_above_basic || (current != OptimizationLevel::kBasic && level_step.changed);
    previous_level_changed = level_step.changed;
    if (observer) {
      level_step.end = Clock::now();
      observer(level_step);
    }
  }
  // Fusions above the basic level leave behind constants only the replaced nodes read (shape
  // folding results, split weights); the basic dead-node pass drops them so that saved models
  // carry no unused initializers.
  const std::string cleanup = "eliminate_dead_nodes";
  for (const auto& pass : passes) {
    if (!fused_above_basic || pass->name() != cleanup || context.IsDisabled(cleanup)) continue;
    ORT_RETURN_IF_ERROR(apply(*pass, 0).status());
  }
  ImportUsedDomains(model.graph(), model.opsets());
  return Status::OK();
}

}  // namespace ort
