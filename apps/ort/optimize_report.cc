#include "apps/ort/optimize_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "lib/common/file_writer.h"
#include "lib/session/partitioner.h"

namespace ort::cli {
namespace {

using Json = nlohmann::ordered_json;

double Milliseconds(const OptimizerStep& step) {
  return std::chrono::duration<double, std::milli>(step.end - step.start).count();
}

void CountInto(const Graph& graph, std::map<std::string, int64_t>& counts) {
  for (const Node* node : graph.Nodes()) {
    const std::string key =
        node->domain().empty() ? node->op_type() : node->domain() + ":" + node->op_type();
    ++counts[key];
    for (const Graph* subgraph : node->Subgraphs()) CountInto(*subgraph, counts);
  }
}

std::string ReadableBytes(int64_t bytes) {
  if (bytes < 10'000) return fmt::format("{} bytes", bytes);
  if (bytes < 10'000'000) return fmt::format("{:.1f} kB", static_cast<double>(bytes) / 1e3);
  return fmt::format("{:.1f} MB", static_cast<double>(bytes) / 1e6);
}

void CountPlacement(const Graph& graph, std::map<std::string, ProviderPlacement>& placed) {
  for (const Node* node : graph.Nodes()) {
    ProviderPlacement& entry = placed[node->provider()];
    ++entry.nodes;
    ++entry.op_types[node->domain().empty() ? node->op_type()
                                            : node->domain() + ":" + node->op_type()];
    for (const Graph* subgraph : node->Subgraphs()) CountPlacement(*subgraph, placed);
  }
}

}  // namespace

Result<std::vector<ProviderPlacement>> PlaceNodes(Graph& graph,
                                                  std::span<IExecutionProvider* const> providers) {
  ORT_RETURN_IF_ERROR(PartitionGraph(graph, providers));
  std::map<std::string, ProviderPlacement> placed;
  CountPlacement(graph, placed);
  std::vector<ProviderPlacement> placement;
  for (const IExecutionProvider* provider : providers) {
    ProviderPlacement entry = placed[provider->type()];
    entry.provider = provider->type();
    placement.push_back(std::move(entry));
  }
  return placement;
}

OptimizerStatsCollector::OptimizerStatsCollector() {
  for (const auto& pass : BuiltInPasses()) rules_of_pass_[pass->name()] = pass->RuleNames();
}

void OptimizerStatsCollector::Record(const OptimizerStep& step) {
  const std::string level(OptimizationLevelName(step.level));
  if (step.kind == OptimizerStep::Kind::kLevel) {
    levels_.push_back({level, step.iteration, step.changed, Milliseconds(step)});
    return;
  }
  if (step.kind == OptimizerStep::Kind::kRollback) {
    rollbacks_.push_back(*step.rollback);
    return;
  }
  auto it = std::find_if(passes_.begin(), passes_.end(),
                         [&step](const PassStats& pass) { return pass.name == step.name; });
  if (it == passes_.end()) {
    PassStats pass;
    pass.name = std::string(step.name);
    pass.level = level;
    const auto rules = rules_of_pass_.find(pass.name);
    if (rules != rules_of_pass_.end() && !rules->second.empty()) {
      pass.rule_based = true;
      for (const auto& rule : rules->second) pass.rules.emplace_back(rule, 0);
    }
    passes_.push_back(std::move(pass));
    it = std::prev(passes_.end());
  }
  ++it->applications;
  if (step.changed) ++it->changed;
  it->time_ms += Milliseconds(step);
  for (const RuleFireCount& fired : step.rule_fires) {
    auto rule = std::find_if(it->rules.begin(), it->rules.end(),
                             [&fired](const auto& entry) { return entry.first == fired.rule; });
    if (rule == it->rules.end()) {
      it->rules.emplace_back(std::string(fired.rule), fired.count);
    } else {
      rule->second += fired.count;
    }
  }
}

std::map<std::string, int64_t> CountOpTypes(const Graph& graph) {
  std::map<std::string, int64_t> counts;
  CountInto(graph, counts);
  return counts;
}

std::vector<OpCount> CompareOpCounts(const std::map<std::string, int64_t>& before,
                                     const std::map<std::string, int64_t>& after) {
  std::map<std::string, OpCount> merged;
  for (const auto& [op, count] : before) merged[op] = {op, count, 0};
  for (const auto& [op, count] : after) {
    auto& entry = merged[op];
    entry.op_type = op;
    entry.after = count;
  }
  std::vector<OpCount> table;
  for (auto& [op, entry] : merged) table.push_back(std::move(entry));
  return table;
}

std::string FormatOptimizeReport(const OptimizeReport& report) {
  std::string text = fmt::format(
      "model: {} ({} nodes) -> {} ({} nodes)\nlevel {}, providers {}, input already at level "
      "{}{}\n",
      report.model, report.nodes_before, report.output, report.nodes_after, report.level,
      fmt::join(report.providers, ","), report.input_level,
      report.disabled_passes.empty()
          ? ""
          : fmt::format(", disabled: {}", fmt::join(report.disabled_passes, ",")));
  text += fmt::format("\n{:<40} {:>8} {:>8}\n", "op type", "before", "after");
  for (const OpCount& op : report.op_types) {
    text += fmt::format("{:<40} {:>8} {:>8}{}\n", op.op_type, op.before, op.after,
                        op.before == op.after ? "" : "  *");
  }
  text += fmt::format("{:<40} {:>8} {:>8}\n", "total", report.nodes_before, report.nodes_after);
  text += fmt::format("\n{:<40} {:<9} {:>5} {:>8} {:>10}\n", "pass / rule", "level", "runs",
                      "changed", "time ms");
  for (const PassStats& pass : report.passes) {
    text += fmt::format("{:<40} {:<9} {:>5} {:>8} {:>10.3f}\n", pass.name, pass.level,
                        pass.applications, pass.changed, pass.time_ms);
    for (const auto& [rule, fires] : pass.rules) {
      text += fmt::format("  {:<38} fired {}\n", rule, fires);
    }
  }
  for (const LevelStats& level : report.levels) {
    text += fmt::format("level {}: {} iteration(s), {:.3f} ms\n", level.name, level.iterations,
                        level.time_ms);
  }
  text += fmt::format("optimizer rollbacks: {}\n", report.rollbacks.size());
  for (const OptimizerRollback& rollback : report.rollbacks) {
    text += fmt::format("  {}\n", DescribeRollback(rollback));
  }
  if (!report.session_only_ops.empty()) {
    text +=
        "\nsession-only fusions (forms onnxruntime cannot run, left out of the saved model; a "
        "session on it makes them)\n";
    for (const OpCount& op : report.session_only_ops) {
      text += fmt::format("  {:<38} {:>8} {:>8}\n", op.op_type, op.before, op.after);
    }
  }
  if (report.placement.size() > 1) {
    text += "\nplacement (nodes per provider; copies between devices are not counted as nodes)\n";
    for (const ProviderPlacement& placed : report.placement) {
      std::vector<std::string> ops;
      for (const auto& [op, count] : placed.op_types)
        ops.push_back(fmt::format("{} {}", op, count));
      text +=
          fmt::format("  {:<8} {:>6}  {}\n", placed.provider, placed.nodes, fmt::join(ops, ", "));
    }
    text += fmt::format(
        "  copies per run: {} to the device, {} to the host; {} weights uploaded once\n",
        report.copies_to_device, report.copies_to_host, report.weights_uploaded);
  }
  text += "\n";
  if (report.output_in_place) {
    text +=
        "external data: none (the output is a device or descriptor; every initializer "
        "inline)\n";
  } else if (report.external_data_file.empty()) {
    text += fmt::format("external data: none (no initializer of {} bytes or more)\n",
                        report.external_data_min_bytes);
  } else {
    text += fmt::format("external data: {} ({} initializers, {}; {} bytes or more each)\n",
                        report.external_data_file, report.external_initializers,
                        ReadableBytes(report.external_bytes), report.external_data_min_bytes);
  }
  if (report.output_bytes >= 0) {
    text += fmt::format("model file: {}\n", ReadableBytes(report.output_bytes));
  }
  text += fmt::format("time: load {:.3f} ms, optimize {:.3f} ms, save {:.3f} ms\n", report.load_ms,
                      report.optimize_ms, report.save_ms);
  return text;
}

Status WriteOptimizeReportJson(const OptimizeReport& report, const std::string& path) {
  Json op_types = Json::array();
  for (const OpCount& op : report.op_types) {
    op_types.push_back({{"op_type", op.op_type}, {"before", op.before}, {"after", op.after}});
  }
  Json passes = Json::array();
  for (const PassStats& pass : report.passes) {
    Json rules = Json::object();
    for (const auto& [rule, fires] : pass.rules) rules[rule] = fires;
    Json entry = {{"name", pass.name},
                  {"level", pass.level},
                  {"applications", pass.applications},
                  {"changed", pass.changed},
                  {"time_ms", pass.time_ms}};
    if (pass.rule_based) entry["rules"] = rules;
    passes.push_back(std::move(entry));
  }
  Json levels = Json::array();
  for (const LevelStats& level : report.levels) {
    levels.push_back({{"name", level.name},
                      {"iterations", level.iterations},
                      {"changed", level.changed},
                      {"time_ms", level.time_ms}});
  }
  Json session_only_ops = Json::array();
  for (const OpCount& op : report.session_only_ops) {
    session_only_ops.push_back(
        {{"op_type", op.op_type}, {"before", op.before}, {"after", op.after}});
  }
  Json rollbacks = Json::array();
  for (const OptimizerRollback& rollback : report.rollbacks) {
    rollbacks.push_back({{"pass", rollback.pass},
                         {"rule", rollback.rule},
                         {"node", rollback.node},
                         {"reason", rollback.reason}});
  }
  Json placement = Json::array();
  for (const ProviderPlacement& placed : report.placement) {
    placement.push_back(
        {{"provider", placed.provider}, {"nodes", placed.nodes}, {"op_types", placed.op_types}});
  }
  const Json json = {
      {"model", report.model},
      {"output", report.output},
      {"level", report.level},
      {"input_level", report.input_level},
      {"providers", report.providers},
      {"disabled_passes", report.disabled_passes},
      {"nodes_before", report.nodes_before},
      {"nodes_after", report.nodes_after},
      {"op_types", op_types},
      {"levels", levels},
      {"passes", passes},
      {"optimizer_rollbacks", report.rollbacks.size()},
      {"rollbacks", rollbacks},
      {"session_only_ops", session_only_ops},
      {"placement", placement},
      {"copies",
       {{"to_device", report.copies_to_device},
        {"to_host", report.copies_to_host},
        {"weights", report.weights_uploaded}}},
      {"external_data",
       {{"file", report.external_data_file},
        {"min_bytes", report.external_data_min_bytes},
        {"initializers", report.external_initializers},
        {"bytes", report.external_bytes}}},
      {"output_bytes", report.output_bytes >= 0 ? Json(report.output_bytes) : Json(nullptr)},
      {"load_ms", report.load_ms},
      {"optimize_ms", report.optimize_ms},
      {"save_ms", report.save_ms},
  };
  return WriteStringToFile(path, json.dump(2) + "\n").WithContext("--report");
}

}  // namespace ort::cli
