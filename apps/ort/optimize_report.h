// The result of `ort optimize`: node counts per op type before and after, what each pass and
// rule did and how long it took, where the weights went; printed as tables and written by
// --report as JSON (schema in docs/optimize_report.schema.json).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/framework/execution_provider.h"
#include "lib/ir/graph.h"
#include "lib/optimizer/graph_optimizer.h"

namespace ort::cli {

/// Everything one optimizer pass did over the whole optimization.
struct PassStats {
  std::string name;
  std::string level;
  int applications = 0;     // times the driver applied it
  int changed = 0;          // applications that changed the graph
  double time_ms = 0;       // all applications together
  bool rule_based = false;  // made of rewrite rules; `rules` lists every one of them
  std::vector<std::pair<std::string, int>> rules;  // rule -> fires, in the pass's order
};

/// One optimization level as the driver ran it.
struct LevelStats {
  std::string name;
  int iterations = 0;  // sweeps over the level's passes until none changed the graph
  bool changed = false;
  double time_ms = 0;
};

/// Nodes of one op type ("Conv", "com.microsoft:FusedConv") before and after optimization.
struct OpCount {
  std::string op_type;
  int64_t before = 0;
  int64_t after = 0;
};

/// The nodes one provider would run, per op type.
struct ProviderPlacement {
  std::string provider;
  int64_t nodes = 0;
  std::map<std::string, int64_t> op_types;
};

/// Partitions `graph` (and its subgraphs) over `providers` as a session would; the nodes and op
/// types each provider took, in the providers' order.
Result<std::vector<ProviderPlacement>> PlaceNodes(Graph& graph,
                                                  std::span<IExecutionProvider* const> providers);

struct OptimizeReport {
  std::string model;
  std::string output;
  std::string level;
  std::vector<std::string> providers;
  std::vector<std::string> disabled_passes;
  /// Level the input model carried already ("disable" when it carried none).
  std::string input_level = "disable";
  int64_t nodes_before = 0;
  int64_t nodes_after = 0;
  std::vector<OpCount> op_types;  // sorted by op type
  std::vector<LevelStats> levels;
  std::vector<PassStats> passes;  // in first-applied order
  /// Passes (or rules) that broke the graph and were rolled back, in order.
  std::vector<OptimizerRollback> rollbacks;
  /// What the session-only passes (IsSessionOnlyPass) change in a session on the saved model,
  /// which does not hold their rewrites: the op types whose count they change, `before` as saved.
  std::vector<OpCount> session_only_ops;
  /// Where a session with these providers would run the optimized nodes (priority order), and
  /// the copies between devices it would make.
  std::vector<ProviderPlacement> placement;
  int64_t copies_to_device = 0;    // per run
  int64_t copies_to_host = 0;      // per run
  int64_t weights_uploaded = 0;    // once, at initialization
  std::string external_data_file;  // relative to the output's directory; "" when none written
  size_t external_data_min_bytes = 0;
  bool output_in_place = false;  // a device or descriptor (/dev/null): no data file beside it
  int64_t external_initializers = 0;
  int64_t external_bytes = 0;
  int64_t output_bytes = 0;  // the .onnx file alone; -1 when not a regular file (/dev/null)
  double load_ms = 0;
  double optimize_ms = 0;
  double save_ms = 0;
};

/// Collects OptimizerSteps into PassStats, LevelStats and rollbacks (an OptimizerObserver).
class OptimizerStatsCollector {
 public:
  OptimizerStatsCollector();
  void Record(const OptimizerStep& step);
  std::vector<LevelStats> levels() const { return levels_; }
  std::vector<PassStats> passes() const { return passes_; }
  std::vector<OptimizerRollback> rollbacks() const { return rollbacks_; }

 private:
  std::map<std::string, std::vector<std::string>> rules_of_pass_;
  std::vector<LevelStats> levels_;
  std::vector<PassStats> passes_;
  std::vector<OptimizerRollback> rollbacks_;
};

/// Counts the nodes of `graph` and its subgraphs per op type ("domain:op" outside ai.onnx).
std::map<std::string, int64_t> CountOpTypes(const Graph& graph);

/// Pairs two CountOpTypes results into a table sorted by op type.
std::vector<OpCount> CompareOpCounts(const std::map<std::string, int64_t>& before,
                                     const std::map<std::string, int64_t>& after);

/// The report as console tables.
std::string FormatOptimizeReport(const OptimizeReport& report);

/// Writes `report` as JSON to `path`.
Status WriteOptimizeReportJson(const OptimizeReport& report, const std::string& path);

}  // namespace ort::cli
