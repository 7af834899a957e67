#include "lib/optimizer/graph_optimizer.h"

#include <algorithm>

#include <fmt/ranges.h>

#include "lib/common/logging.h"
#include "lib/ir/graph_validation.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

// A level is re-run while it keeps changing the graph, at most this many times.
constexpr int kMaxIterationsPerLevel = 10;

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
  basic_rules.push_back(CreateFuseMatMulAddIntoGemmRule());

  std::vector<std::unique_ptr<GraphTransformer>> passes;
  passes.push_back(std::make_unique<RuleBasedTransformer>(
      "basic_rewrites", OptimizationLevel::kBasic, std::move(basic_rules)));
  passes.push_back(CreateConstantFolding());
  passes.push_back(CreateEliminateDeadNodes());
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
  OptimizerContext context{providers, &options.disabled_passes};
  for (OptimizationLevel current :
       {OptimizationLevel::kBasic, OptimizationLevel::kExtended, OptimizationLevel::kAll}) {
    if (static_cast<int>(current) > static_cast<int>(level)) break;
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
        if (!pass->ServesAny(providers)) continue;
        bool changed = false;
        const Clock::time_point start = now();
        Status status = pass->Apply(model.graph(), context, changed);
        if (!status.ok()) return status.WithContext("optimizer pass '" + pass->name() + "'");
        if (changed) {
          level_changed = true;
          model.graph().ResolveOuterScope();
          status = ValidateGraph(model.graph());
          if (!status.ok()) {
            return status.WithContext("graph invalid after optimizer pass '" + pass->name() + "'");
          }
          ORT_LOG_VERBOSE("optimizer pass '{}' changed the graph", pass->name());
        }
        if (observer) {
          observer({OptimizerStep::Kind::kPass, pass->name(), current, iteration, changed, start,
                    Clock::now()});
        }
      }
      level_step.changed = level_step.changed || level_changed;
      if (!level_changed) break;
    }
    if (observer) {
      level_step.end = Clock::now();
      observer(level_step);
    }
  }
  return Status::OK();
}

}  // namespace ort
