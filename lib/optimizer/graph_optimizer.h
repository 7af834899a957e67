// The optimizer driver: runs the passes of each level up to the session's level, in level order,
// repeating a level until nothing changes (bounded), validating the graph after every pass. A
// pass that fails or leaves an invalid graph is rolled back and skipped from then on (an error
// in strict mode).
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

/// True for the built-in passes passes.inc marks session-only: they make ops that only this
/// engine runs, so they never rewrite a model being saved.
bool IsSessionOnlyPass(std::string_view name);

struct OptimizerOptions {
  OptimizationLevel level = OptimizationLevel::kAll;
  /// Passes and rules to skip, by name (DisablePassNames or a custom pass's); an unknown name is
  /// an error.
  std::set<std::string> disabled_passes = {};
  /// Levels up to this one were applied before (a model saved by `ort optimize`): skipped, but
  /// for their session-only passes (IsSessionOnlyPass), which no saved model has had.
  OptimizationLevel applied_level = OptimizationLevel::kDisable;
  /// The model is being optimized to be saved (`ort optimize`), for other engines to load too:
  /// the session-only passes do not run.
  bool for_saving = false;
  /// A pass that fails or leaves an invalid graph is an error naming it, instead of being rolled
  /// back with a warning (tests, the model zoo sweep, `--strict-optimizer`).
  bool strict = false;
  /// The caller's own passes (ONNX Runtime's custom graph transformers): each runs after the
  /// built-in passes of its level, in this order, and may be disabled by name like them.
  std::vector<std::shared_ptr<const GraphTransformer>> custom_passes = {};
};

/// A pass application the driver undid: the pass failed, or the graph it left failed validation
/// (ValidateGraph, or its interface changed: CheckInterface).
struct OptimizerRollback {
  std::string pass;
  /// The rewrite rule that broke the graph, for a rule-based pass; "" for a global pass (or when
  /// no single rewrite could be blamed: then the whole pass is skipped).
  std::string rule;
  /// The node the failing rewrite was rooted at, or the node the error names; "" when none.
  std::string node;
  /// The pass's error, or what validation found.
  std::string reason;
};

/// "pass 'p', rule 'r', at node 'n' (Op): reason" (the parts that are known).
std::string DescribeRollback(const OptimizerRollback& rollback);

/// How often one rewrite rule fired during one pass application.
struct RuleFireCount {
  std::string_view rule;
  int count = 0;
};

/// One timed step of the driver: a whole level, one application of one pass, or the rollback of
/// one (after which the driver runs the level again from its start, without the culprit).
struct OptimizerStep {
  enum class Kind { kLevel, kPass, kRollback };
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
  /// Rollbacks: what was undone (valid only during the observer call); `start` and `end` span
  /// the restore.
  const OptimizerRollback* rollback = nullptr;
};

/// Told about every pass application and every level after it succeeds, so the session can
/// profile the optimizer without the optimizer knowing about profiling.
using OptimizerObserver = std::function<void(const OptimizerStep&)>;

/// Optimizes `model` in place up to `options.level`, with the passes that serve one of
/// `providers`. A pass whose Apply fails or whose result fails validation is rolled back: the
/// graph goes back to its state before the pass, one warning names the pass (and rule), the node
/// and the reason, the pass (or only the rule that broke the graph) is skipped for the rest of
/// this optimization, and optimization goes on; with `options.strict` it is an error naming the
/// pass instead. The graph must be valid on entry. `observer`, when set, is called after each
/// pass application, each rollback and each level (the clock is read and rule fires are counted
/// only then). Domains that fused nodes use are added to the model's opset imports, so the model
/// can be saved.
Status OptimizeGraph(Model& model, const OptimizerOptions& options,
                     std::span<IExecutionProvider* const> providers,
                     const OptimizerObserver& observer = {});

}  // namespace ort
