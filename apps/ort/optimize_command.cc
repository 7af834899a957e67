#include "apps/ort/optimize_command.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include "apps/ort/common_options.h"
#include "apps/ort/optimize_report.h"
#include "lib/common/file_writer.h"
#include "lib/onnx/model_proto.h"
#include "lib/optimizer/graph_optimizer.h"
#include "lib/optimizer/optimization_record.h"
#include "lib/session/memcpy_insertion.h"
#include "lib/session/partitioner.h"

namespace ort::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct OptimizeArgs {
  SessionArgs session;
  std::string output;
  // ONNX Runtime's default for optimized models
  // (session.optimized_model_external_initializers_min_size_in_bytes).
  size_t external_data_min_bytes = 1024;
  std::string report_path;
};

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Initializers of `graph` and its subgraphs that SaveModel puts in the external data file.
void CountExternal(const Graph& graph, size_t min_bytes, OptimizeReport& report) {
  for (const auto& [name, tensor] : graph.initializers()) {
    if (tensor.dtype() == DataType::kString || tensor.SizeInBytes() < min_bytes) continue;
    ++report.external_initializers;
    report.external_bytes += static_cast<int64_t>(tensor.SizeInBytes());
  }
  for (const Node* node : graph.Nodes()) {
    for (const Graph* subgraph : node->Subgraphs()) CountExternal(*subgraph, min_bytes, report);
  }
}

// Partitions the optimized graph as a session would and inserts its copies, after the model was
// saved: the saved model stays provider-neutral ONNX.
Status ReportPlacement(InferenceSession& session, OptimizeReport& report) {
  std::vector<IExecutionProvider*> providers;
  for (const auto& provider : session.providers()) providers.push_back(provider.get());
  Graph& graph = session.mutable_model().graph();
  ORT_ASSIGN_OR_RETURN(report.placement, PlaceNodes(graph, providers));
  ORT_ASSIGN_OR_RETURN(const MemcpyCounts copies, InsertMemcpyNodes(graph, providers));
  report.copies_to_device = copies.to_device;
  report.copies_to_host = copies.to_host;
  report.weights_uploaded = copies.weights;
  return Status::OK();
}

// A session on the saved model also runs the session-only passes (their ops are not saved, for
// other engines to load the model): they run here after saving, so that the placement and the
// report show the graph such a session executes.
Status ApplySessionOnlyPasses(InferenceSession& session, const OptimizeArgs& args,
                              OptimizationLevel level, OptimizeReport& report) {
  std::vector<IExecutionProvider*> providers;
  for (const auto& provider : session.providers()) providers.push_back(provider.get());
  OptimizerOptions options;
  options.level = level;
  options.applied_level = level;
  options.disabled_passes = {args.session.disabled_passes.begin(),
                             args.session.disabled_passes.end()};
  options.strict = args.session.strict_optimizer;
  Model& model = session.mutable_model();
  const auto saved = CountOpTypes(model.graph());
  ORT_RETURN_IF_ERROR(OptimizeGraph(model, options, providers));
  for (OpCount& op : CompareOpCounts(saved, CountOpTypes(model.graph()))) {
    if (op.before != op.after) report.session_only_ops.push_back(std::move(op));
  }
  return Status::OK();
}

Status Execute(const OptimizeArgs& args) {
  ORT_ASSIGN_OR_RETURN(OptimizationLevel level, ParseOptimizationLevel(args.session.opt_level));
  const std::filesystem::path output(args.output);
  const std::filesystem::path data_path = output.string() + ".data";

  OptimizeReport report;
  report.model = args.session.model;
  report.output = args.output;
  report.level = std::string(OptimizationLevelName(level));
  report.disabled_passes = args.session.disabled_passes;
  report.external_data_min_bytes = args.external_data_min_bytes;

  Clock::time_point start = Clock::now();
  ORT_ASSIGN_OR_RETURN(std::unique_ptr<InferenceSession> session, LoadSession(args.session));
  report.load_ms = MillisecondsSince(start);
  for (const auto& provider : session->providers()) report.providers.push_back(provider->type());
  const Model& model = session->model();
  // A record that does not parse is ignored (the session warns about it).
  const auto input_record = ReadOptimizationRecord(model);
  if (input_record.ok()) report.input_level = OptimizationLevelName(input_record->level);
  const auto before = CountOpTypes(model.graph());

  OptimizerStatsCollector stats;
  start = Clock::now();
  ORT_RETURN_IF_ERROR(
      session->OptimizeForSaving([&stats](const OptimizerStep& step) { stats.Record(step); }));
  report.optimize_ms = MillisecondsSince(start);
  report.levels = stats.levels();
  report.passes = stats.passes();
  report.rollbacks = stats.rollbacks();
  const auto after = CountOpTypes(model.graph());
  report.op_types = CompareOpCounts(before, after);
  for (const OpCount& op : report.op_types) {
    report.nodes_before += op.before;
    report.nodes_after += op.after;
  }
  // A model written to a device (-o /dev/null) has nowhere beside it for a data file.
  report.output_in_place = WritesInPlace(args.output);
  const size_t external_min_bytes =
      report.output_in_place ? SIZE_MAX : args.external_data_min_bytes;
  CountExternal(model.graph(), external_min_bytes, report);

  // SaveModel replaces files by renaming new ones over them, so -o may name the input model or
  // its data file: the loaded weights stay mapped from the old files.
  start = Clock::now();
  SaveOptions save_options;
  save_options.external_data_threshold_bytes = external_min_bytes;
  ORT_RETURN_IF_ERROR(SaveModel(model, args.output, save_options));
  report.save_ms = MillisecondsSince(start);
  if (report.external_initializers > 0) report.external_data_file = data_path.filename().string();
  std::error_code error;
  const auto output_bytes = std::filesystem::file_size(output, error);
  report.output_bytes = error ? -1 : static_cast<int64_t>(output_bytes);
  ORT_RETURN_IF_ERROR(ApplySessionOnlyPasses(*session, args, level, report));
  ORT_RETURN_IF_ERROR(ReportPlacement(*session, report));

  std::cout << FormatOptimizeReport(report);
  if (!args.report_path.empty()) {
    ORT_RETURN_IF_ERROR(WriteOptimizeReportJson(report, args.report_path));
    std::cout << "report written to " << args.report_path << "\n";
  }
  return Status::OK();
}

}  // namespace

std::function<int()> AddOptimizeCommand(CLI::App& app) {
  auto args = std::make_shared<OptimizeArgs>();
  CLI::App* command = app.add_subcommand(
      "optimize", "Optimize a model offline and save it (large weights in OUT.data)");
  AddModelOptions(*command, args->session);
  // Optimizing for a provider and placing nodes on it run no kernel: `-e cuda` works without a
  // GPU.
  args->session.without_device = true;
  command->add_option("-o,--output", args->output, "where to write the optimized model")
      ->required();
  command->add_option("--level", args->session.opt_level,
                      "graph optimization level: disable, basic, extended, all (the session's "
                      "default, all)");
  command->add_option("--external-data-min-bytes", args->external_data_min_bytes,
                      "initializers of at least this many bytes go to OUT.data next to OUT");
  command->add_option("--report", args->report_path, "also write the report as JSON here");
  return [command, args]() -> int {
    (void)command;
    Status status = Execute(*args);
    if (!status.ok()) {
      std::cerr << "ort optimize: " << status.message() << "\n";
      return 2;
    }
    return 0;
  };
}

}  // namespace ort::cli
