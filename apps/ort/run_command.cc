#include "apps/ort/run_command.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string_view>

#include "apps/ort/common_options.h"
#include "apps/ort/feeds.h"
#include "apps/ort/intermediates.h"
#include "lib/io/compare.h"
#include "lib/io/npy.h"
#include "lib/io/tensor_file.h"
#include "lib/profiler/profile_summary.h"

namespace ort::cli {
namespace {

struct RunArgs {
  SessionArgs session;
  FeedArgs feeds;
  std::string output_dir;
  std::string output_format = "pb";
  std::string expected_dir;
  double rtol = 1e-3;
  double atol = 1e-5;
  bool verbose = false;
  int repeat = 1;
  std::string dump_dir;
  std::string dump_filter;
};

std::string FirstValues(const Value& value) {
  if (!value.IsTensor()) return value.Describe();
  const Tensor& tensor = value.tensor();
  constexpr int64_t kShown = 6;
  const int64_t count = std::min(tensor.NumElements(), kShown);
  std::string text = "[";
  Status status = DispatchByType<AllTensorTypes>(tensor.dtype(), "print", [&]<typename T>() {
    const T* data = tensor.Data<T>();
    for (int64_t i = 0; i < count; ++i) {
      if (i > 0) text += ", ";
      if constexpr (std::is_same_v<T, std::string>) {
        text += "'" + data[i] + "'";
      } else if constexpr (std::is_same_v<T, bool>) {
        text += data[i] ? "true" : "false";
      } else if constexpr (std::is_integral_v<T>) {
        text += std::to_string(data[i]);
      } else {
        text += fmt::format("{:.6g}", static_cast<float>(data[i]));
      }
    }
    return Status::OK();
  });
  if (!status.ok()) return "(" + std::string(DataTypeName(tensor.dtype())) + ")";
  if (tensor.NumElements() > count) text += ", ...";
  return text + "]";
}

void PrintAssignments(const InferenceSession& session) {
  std::map<std::string, int> per_provider;
  for (const Node* node : session.ExecutionOrder()) ++per_provider[node->provider()];
  std::cout << "node assignment:";
  for (const auto& [provider, count] : per_provider) std::cout << " " << provider << "=" << count;
  std::cout << "\n";
  for (const Node* node : session.ExecutionOrder()) {
    std::cout << "  [" << node->provider() << "] " << node->name() << " ("
              << (node->domain().empty() ? "" : node->domain() + ":") << node->op_type() << ")\n";
  }
}

Status WriteOutputs(const RunArgs& args, const std::vector<ValueInfo>& infos,
                    const std::vector<Value>& outputs) {
  std::error_code error;
  std::filesystem::create_directories(args.output_dir, error);
  if (error) {
    return ORT_ERROR(kIoError, "cannot create --output-dir '{}': {}", args.output_dir,
                     error.message());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto directory = std::filesystem::path(args.output_dir);
    if (args.output_format == "npy") {
      if (!outputs[i].IsTensor()) {
        return ORT_ERROR(kInvalidArgument, "output '{}' is not a tensor; use --output-format pb",
                         infos[i].name);
      }
      // The name becomes a file name: one reaching out of the directory (a model's names are
      // not to be trusted) is refused.
      if (infos[i].name.find_first_of(std::string_view("/\0", 2)) != std::string::npos) {
        return ORT_ERROR(kInvalidArgument,
                         "output '{}' cannot name a file in --output-dir; use --output-format pb",
                         infos[i].name);
      }
      ORT_RETURN_IF_ERROR(
          WriteNpy((directory / (infos[i].name + ".npy")).string(), outputs[i].tensor()));
    } else {
      ORT_RETURN_IF_ERROR(
          WriteProtoFile((directory / ("output_" + std::to_string(i) + ".pb")).string(),
                         infos[i].name, outputs[i], &infos[i].type));
    }
  }
  return Status::OK();
}

// Compares with DIR/output_<i>.pb or DIR/<name>.npy; returns whether all matched.
Result<bool> CompareOutputs(const RunArgs& args, const std::vector<ValueInfo>& infos,
                            const std::vector<Value>& outputs) {
  bool all_match = true;
  std::cout << "comparison with " << args.expected_dir << " (rtol " << args.rtol << ", atol "
            << args.atol << "):\n";
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto directory = std::filesystem::path(args.expected_dir);
    auto path = directory / ("output_" + std::to_string(i) + ".pb");
    if (!std::filesystem::exists(path)) path = directory / (infos[i].name + ".npy");
    if (!std::filesystem::exists(path)) {
      return ORT_ERROR(
          kNotFound,
          "no expected value for output '{}' (looked for output_{}.pb and {}.npy in '{}')",
          infos[i].name, i, infos[i].name, args.expected_dir);
    }
    ORT_ASSIGN_OR_RETURN(NamedFileValue expected, ReadValueFile(path.string(), &infos[i].type));
    const Comparison result = CompareValues(outputs[i], expected.value, {args.rtol, args.atol});
    std::cout << fmt::format("  {:<24} max abs diff {:.3g}  max rel diff {:.3g}  {}\n",
                             infos[i].name, result.max_abs_diff, result.max_rel_diff,
                             result.match ? "OK" : "MISMATCH (" + result.detail + ")");
    all_match = all_match && result.match;
  }
  return all_match;
}

Result<int> Execute(const RunArgs& args) {
  ORT_RETURN_IF_NOT(args.repeat >= 1, "--repeat must be at least 1, got {}", args.repeat);
  if (args.output_format != "pb" && args.output_format != "npy") {
    return ORT_ERROR(kInvalidArgument, "--output-format must be pb or npy, got '{}'",
                     args.output_format);
  }
  std::vector<std::string> intermediates;
  ModelEdit mark_intermediates;
  if (!args.dump_dir.empty()) {
    mark_intermediates = [&](Model& model) -> Status {
      ORT_ASSIGN_OR_RETURN(intermediates, MarkIntermediates(model, args.dump_filter));
      return Status::OK();
    };
  } else if (!args.dump_filter.empty()) {
    return ORT_ERROR(kInvalidArgument, "--dump-filter needs --dump-intermediates DIR");
  }
  ORT_ASSIGN_OR_RETURN(std::unique_ptr<InferenceSession> session,
                       CreateSession(args.session, mark_intermediates));
  ORT_ASSIGN_OR_RETURN(std::vector<Feed> feeds, BuildFeeds(*session, args.feeds));

  const Model& model = session->model();
  std::cout << "model: " << args.session.model << " (ai.onnx opset "
            << model.graph().OpsetVersion("") << ", " << session->ExecutionOrder().size()
            << " nodes after optimization level " << args.session.opt_level
            << ", optimizer rollbacks: " << session->optimizer_rollbacks().size() << ")\n";
  if (args.verbose) PrintAssignments(*session);
  std::cout << "inputs:\n";
  std::vector<NamedValue> named;
  for (const auto& feed : feeds) {
    std::cout << fmt::format("  {:<24} {:<24} {}\n", feed.value.first, feed.value.second.Describe(),
                             feed.source);
    named.push_back(feed.value);
  }

  std::vector<Value> outputs;
  double milliseconds = 0;
  // Later runs take other paths than the first (memory patterns recorded by it), so checking
  // the last run's outputs checks those paths too.
  for (int run = 0; run < args.repeat; ++run) {
    outputs.clear();
    const auto start = std::chrono::steady_clock::now();
    ORT_RETURN_IF_ERROR(session->Run(RunOptions{}, named, {}, &outputs));
    milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }

  std::vector<ValueInfo> infos = session->OutputInfos();
  if (!intermediates.empty()) {
    // The marked values follow the model's own outputs.
    const size_t model_outputs = outputs.size() - intermediates.size();
    const std::vector<Value> marked(outputs.begin() + static_cast<std::ptrdiff_t>(model_outputs),
                                    outputs.end());
    ORT_ASSIGN_OR_RETURN(const size_t written,
                         WriteIntermediates(args.dump_dir, intermediates, marked));
    std::cout << fmt::format("intermediates: {} of {} node outputs written to {}{}\n", written,
                             intermediates.size(), args.dump_dir,
                             written < intermediates.size() ? " (the rest are not tensors)" : "");
    outputs.resize(model_outputs);
    infos.resize(model_outputs);
  }
  std::cout << fmt::format("outputs (run took {:.3f} ms):\n", milliseconds);
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::cout << fmt::format("  {:<24} {:<24} {}\n", infos[i].name, outputs[i].Describe(),
                             FirstValues(outputs[i]));
  }
  if (!args.output_dir.empty()) ORT_RETURN_IF_ERROR(WriteOutputs(args, infos, outputs));
  if (!args.session.profile_file.empty()) {
    ORT_ASSIGN_OR_RETURN(std::string trace, session->EndProfiling());
    const std::vector<ProfileEvent> events = session->ProfilingEvents();
    std::cout << FormatProfileSummary(SummarizeProfile(events));
    std::cout << "profile trace written to " << trace << "\n";
  }
  if (!args.expected_dir.empty()) {
    ORT_ASSIGN_OR_RETURN(bool match, CompareOutputs(args, infos, outputs));
    if (!match) return 1;
  }
  return 0;
}

}  // namespace

std::function<int()> AddRunCommand(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* command = app.add_subcommand("run", "Run a model and print or save its outputs");
  AddSessionOptions(*command, args->session);
  AddFeedOptions(*command, args->feeds);
  command->add_option("--output-dir", args->output_dir, "write outputs here");
  command->add_option("--output-format", args->output_format,
                      "output file format: pb (output_<i>.pb) or npy (<name>.npy)");
  command->add_option("--expected-dir", args->expected_dir,
                      "compare with output_<i>.pb or <name>.npy files; exit 1 on mismatch");
  command->add_option("--rtol", args->rtol, "relative tolerance of the comparison");
  command->add_option("--atol", args->atol, "absolute tolerance of the comparison");
  command->add_flag("--verbose", args->verbose, "show the provider assigned to each node");
  command->add_option("--dump-intermediates", args->dump_dir,
                      "write every node output as DIR/<value name>.npy (the values are made "
                      "outputs before optimization, so they are the model's own)");
  command->add_option("--dump-filter", args->dump_filter,
                      "with --dump-intermediates: only the values whose name matches this regex");
  command->add_option("-r,--repeat", args->repeat,
                      "run this many times; the last run's outputs are printed, saved, compared");
  command->add_option("--profile", args->session.profile_file,
                      "profile the session and the run: write a Chrome trace (Perfetto, "
                      "chrome://tracing) here and print the slowest operators and nodes");
  return [command, args]() -> int {
    (void)command;
    auto result = Execute(*args);
    if (!result.ok()) {
      std::cerr << "ort run: " << result.status().message() << "\n";
      return 2;
    }
    return *result;
  };
}

}  // namespace ort::cli
