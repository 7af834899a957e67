// The optimizer driver: runs the passes of each level up to the session's level, in level order,
// repeating a level until nothing changes (bounded), validating the graph after every pass.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ir/model.h"
#include "lib/optimizer/graph_transformer.h"

namespace ort {

/// Every built-in pass, in the order they run within their level.
std::vector<std::unique_ptr<GraphTransformer>> BuiltInPasses();

/// Names users may disable: every built-in pass and every rule inside one, sorted.
std::vector<std::string> DisablePassNames();

struct OptimizerOptions {
  OptimizationLevel level = OptimizationLevel::kAll;
  /// Passes and rules to skip, by name (DisablePassNames); an unknown name is an error.
  std::set<std::string> disabled_passes;
  /// Levels up to this one were applied before (a model saved by `ort optimize`): skipped.
  OptimizationLevel applied_level = OptimizationLevel::kDisable;
};

/// How often one rewrite rule fired during one pass application.
struct RuleFireCount {
  std::string_view rule;
  int count = 0;
};

/// One timed step of the driver: a whole level, or one application of one pass.
struct OptimizerStep {
  enum class Kind { kLevel, kPass };
  Kind kind = Kind::kPass;
  /// The pass's name, or the level's name ("basic", "extended", "all").
  std::string_view name;
  OptimizationLevel level = OptimizationLevel::kBasic;
  /// Passes: which repetition of the level this was (0-based). Levels: how many ran.
  int iteration = 0;
  bool changed = false;
  std::chrono::steady_clock::time_point start;
  std::chrono::steady_clock::time_point end;
  /// Passes made of rewrite rules: the rules that fired in this application (valid only during
  /// the observer call).
  std::span<const RuleFireCount> rule_fires;
};

/// Told about every pass application and every level after it succeeds, so the session can
/// profile the optimizer without the optimizer knowing about profiling.
using OptimizerObserver = std::function<void(const OptimizerStep&)>;

/// Optimizes `model` in place up to `options.level`, with the passes that serve one of
/// `providers`; errors name the failing pass. `observer`, when set, is called after each pass
/// application and each level (the clock is read and rule fires are counted only then). Domains
/// that fused nodes use are added to the model's opset imports, so the model can be saved.
Status OptimizeGraph(Model& model, const OptimizerOptions& options,
                     std::span<IExecutionProvider* const> providers,
                     const OptimizerObserver& observer = {});

}  // namespace ort
