#include "apps/ort/quantize_command.h"

#include <fmt/ranges.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "apps/ort/common_options.h"
#include "apps/ort/feeds.h"
#include "lib/onnx/model_proto.h"
#include "lib/quantization/calibration_data.h"
#include "lib/quantization/graph_edits.h"
#include "lib/quantization/quantization_report.h"
#include "lib/quantization/quantizer.h"
#include "providers/provider_factory.h"

namespace ort::cli {
namespace {

// Sets of seeded random inputs calibrating a model when no --calibrate is given.
constexpr int kRandomSets = 4;

struct QuantizeArgs {
  SessionArgs session;
  std::string output;
  std::string mode = "static";
  std::vector<std::string> calibrate;
  std::string method = "minmax";
  double percentile = 99.999;
  bool per_channel = false;
  bool symmetric_activations = false;
  std::string weight_type = "int8";
  std::vector<std::string> op_types;
  std::vector<std::string> exclude_nodes;
  std::string report_path;
  uint64_t seed = 0;
  CLI::Option* percentile_option = nullptr;
};

Result<QuantizeOptions> ParseOptions(const QuantizeArgs& args) {
  QuantizeOptions options;
  ORT_ASSIGN_OR_RETURN(options.mode, ParseQuantizationMode(args.mode));
  ORT_ASSIGN_OR_RETURN(options.calibration.method, ParseCalibrationMethod(args.method));
  ORT_ASSIGN_OR_RETURN(options.weight_type, ParseWeightType(args.weight_type));
  if (args.percentile_option->count() > 0 &&
      options.calibration.method != CalibrationMethod::kPercentile) {
    return ORT_ERROR(kInvalidArgument, "--percentile applies only to --method percentile");
  }
  ORT_RETURN_IF_NOT(args.percentile > 0 && args.percentile <= 100,
                    "--percentile must be in (0, 100], got {}", args.percentile);
  options.calibration.percentile = args.percentile;
  if (options.mode == QuantizationMode::kDynamic) {
    ORT_RETURN_IF_NOT(args.method == "minmax" && args.percentile_option->count() == 0,
                      "--method applies only to static quantization (dynamic mode calibrates "
                      "nothing)");
    ORT_RETURN_IF_NOT(!args.symmetric_activations,
                      "--symmetric-activations applies only to static quantization (dynamic mode "
                      "quantizes activations to uint8 at run time)");
  }
  options.per_channel = args.per_channel;
  options.symmetric_activations = args.symmetric_activations;
  options.op_types = {args.op_types.begin(), args.op_types.end()};
  options.excluded_nodes = {args.exclude_nodes.begin(), args.exclude_nodes.end()};
  ORT_RETURN_IF_ERROR(CheckOpTypes(options));
  return options;
}

// Calibration and comparison sessions: the CPU provider, the session's default optimizations.
SessionFactory MakeSessionFactory(const SessionArgs& args) {
  return [&args](std::unique_ptr<Model> model) -> Result<std::unique_ptr<InferenceSession>> {
    SessionOptions options;
    ORT_ASSIGN_OR_RETURN(options.log_severity, ParseLogSeverity(args.log_level));
    ORT_RETURN_IF_ERROR(CheckThreadCount(args.intra_op_threads, "--intra-op-threads", false));
    options.intra_op_threads = args.intra_op_threads;
    auto session = std::make_unique<InferenceSession>(options);
    ORT_ASSIGN_OR_RETURN(auto providers, CreateProviders({"cpu"}));
    for (auto& provider : providers) {
      ORT_RETURN_IF_ERROR(session->RegisterProvider(std::move(provider)));
    }
    ORT_RETURN_IF_ERROR(session->Load(std::move(model)));
    ORT_RETURN_IF_ERROR(session->Initialize());
    return session;
  };
}

// Random inputs fill dimensions the model leaves open with 1 (--free-dim fixes them first).
Result<std::vector<CalibrationSet>> RandomSets(const InferenceSession& session, uint64_t seed) {
  FeedArgs feed_args;
  for (const ValueInfo& input : session.InputInfos()) {
    if (!input.type.IsTensor() || !input.type.shape) continue;
    std::vector<int64_t> dims;
    for (const Dimension& dim : *input.type.shape) dims.push_back(dim.IsKnown() ? dim.value : 1);
    feed_args.shapes.push_back(fmt::format("{}={}", input.name, fmt::join(dims, "x")));
  }
  std::vector<CalibrationSet> sets;
  for (int i = 0; i < kRandomSets; ++i) {
    feed_args.seed = seed + static_cast<uint64_t>(i);
    ORT_ASSIGN_OR_RETURN(std::vector<Feed> feeds, BuildFeeds(session, feed_args));
    CalibrationSet set;
    for (Feed& feed : feeds) set.push_back(std::move(feed.value));
    sets.push_back(std::move(set));
  }
  return sets;
}

Status Execute(const QuantizeArgs& args) {
  ORT_ASSIGN_OR_RETURN(const QuantizeOptions options, ParseOptions(args));
  const bool is_static = options.mode == QuantizationMode::kStatic;

  // Basic-level rewrites (Conv+BatchNormalization folding, constant folding) first, so that the
  // weights quantized are those the engine multiplies by.
  SessionArgs session_args = args.session;
  session_args.opt_level = "basic";
  ORT_ASSIGN_OR_RETURN(std::unique_ptr<InferenceSession> session, LoadSession(session_args));
  ORT_RETURN_IF_ERROR(session->OptimizeForSaving());
  const Model& float_model = session->model();
  // Checked before calibration inputs are read or made, so that a typo fails at once.
  ORT_RETURN_IF_ERROR(CheckExcludedNodes(float_model.graph(), options));

  std::vector<CalibrationSet> sets;
  const bool random_inputs = args.calibrate.empty();
  if (random_inputs) {
    if (is_static) {
      std::cerr << "WARNING: ort quantize: no --calibrate directory given; calibrating on "
                << kRandomSets
                << " sets of seeded random inputs. The activation ranges will not fit real data "
                   "and the quantized model will lose accuracy (open dimensions are set to 1): "
                   "pass --calibrate DIR with representative inputs.\n";
    }
    ORT_ASSIGN_OR_RETURN(sets, RandomSets(*session, args.seed));
  } else {
    ORT_ASSIGN_OR_RETURN(sets, ReadCalibrationSets(args.calibrate, session->InputInfos()));
  }

  const SessionFactory make_session = MakeSessionFactory(args.session);
  ORT_ASSIGN_OR_RETURN(std::unique_ptr<Model> quantized, ReloadModel(float_model));
  ORT_ASSIGN_OR_RETURN(std::vector<OpTypeCount> counts,
                       QuantizeModel(*quantized, options, sets, make_session));

  QuantizationReport report;
  report.model = args.session.model;
  report.output = args.output;
  report.mode = std::string(QuantizationModeName(options.mode));
  if (is_static) report.method = std::string(CalibrationMethodName(options.calibration.method));
  report.per_channel = options.per_channel;
  report.symmetric_activations = options.symmetric_activations;
  report.weight_type = args.weight_type;
  report.calibration_sets = static_cast<int>(sets.size());
  report.random_inputs = random_inputs;
  report.op_types = std::move(counts);
  ORT_ASSIGN_OR_RETURN(report.outputs, CompareModels(float_model, *quantized, sets, make_session));

  ORT_RETURN_IF_ERROR(SaveModel(*quantized, args.output));
  std::cout << FormatQuantizationReport(report);
  if (!args.report_path.empty()) {
    ORT_RETURN_IF_ERROR(WriteQuantizationReportJson(report, args.report_path));
    std::cout << "report written to " << args.report_path << "\n";
  }
  return Status::OK();
}

}  // namespace

std::function<int()> AddQuantizeCommand(CLI::App& app) {
  auto args = std::make_shared<QuantizeArgs>();
  CLI::App* command = app.add_subcommand(
      "quantize", "Quantize a model to 8 bits (static QDQ or dynamic) and report its accuracy");
  command->add_option("model", args->session.model, "ONNX model file")->required();
  command->add_option("-o,--output", args->output, "where to write the quantized model")
      ->required();
  command->add_option("--mode", args->mode,
                      "static (calibrated QDQ, the default) or dynamic (MatMul/Gemm weights "
                      "only, activations quantized at run time)");
  command->add_option("--calibrate", args->calibrate,
                      "directory of calibration inputs (NAME.npy per model input, or "
                      "input_<i>.pb), or of such directories (repeatable)");
  command->add_option("--method", args->method,
                      "calibration method: minmax (default), percentile or entropy");
  args->percentile_option =
      command->add_option("--percentile", args->percentile,
                          "percentile of |x| kept by --method percentile (default 99.999)");
  command->add_flag("--per-channel", args->per_channel,
                    "quantize weights per output channel (Conv axis 0, MatMul/Gemm columns)");
  command->add_flag("--symmetric-activations", args->symmetric_activations,
                    "int8 activations with zero point 0 instead of uint8 asymmetric");
  command->add_option("--weight-type", args->weight_type,
                      "int8 (symmetric, default) or uint8 (asymmetric)");
  command
      ->add_option("--op-types", args->op_types,
                   "op types to quantize, comma separated (default: every quantizable one)")
      ->delimiter(',');
  command
      ->add_option("--exclude-nodes", args->exclude_nodes,
                   "names of nodes to leave in float, comma separated")
      ->delimiter(',');
  command->add_option("--report", args->report_path, "also write the report as JSON here");
  command->add_option("--seed", args->seed, "seed of the random inputs used without --calibrate");
  command->add_option("--free-dim", args->session.free_dims,
                      "fix a symbolic dimension: NAME=N (repeatable)");
  command->add_option("-x,--intra-op-threads", args->session.intra_op_threads,
                      "threads per operator while calibrating (0 = one per core)");
  command->add_option("--log-level", args->session.log_level,
                      "log severity: verbose, info, warning, error, fatal");
  return [command, args]() -> int {
    (void)command;
    Status status = Execute(*args);
    if (!status.ok()) {
      std::cerr << "ort quantize: " << status.message() << "\n";
      return 2;
    }
    return 0;
  };
}

}  // namespace ort::cli
