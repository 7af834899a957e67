#include "apps/ort/common_options.h"

#include <algorithm>
#include <charconv>
#include <thread>

#include "lib/onnx/model_loader.h"
#include "providers/provider_factory.h"

namespace ort::cli {

void AddModelOptions(CLI::App& command, SessionArgs& args) {
  command.add_option("model", args.model, "ONNX model file")->required();
  command.add_option("-e,--providers", args.providers,
                     "execution providers in priority order, comma separated (cpu falls back)");
  command.add_option("--free-dim", args.free_dims, "fix a symbolic dimension: NAME=N (repeatable)");
  command.add_option("--disable-pass", args.disabled_passes,
                     "skip an optimizer pass or rewrite rule by name (repeatable)");
  command.add_flag("--strict-optimizer", args.strict_optimizer,
                   "fail when an optimizer pass breaks the graph, instead of rolling it back "
                   "with a warning");
  command.add_option("--log-level", args.log_level,
                     "log severity: verbose, info, warning, error, fatal");
}

void AddSessionOptions(CLI::App& command, SessionArgs& args) {
  AddModelOptions(command, args);
  command.add_option("-x,--intra-op-threads", args.intra_op_threads,
                     "threads per operator (0 = one per core)");
  command.add_option("-y,--inter-op-threads", args.inter_op_threads,
                     "threads running independent operators in parallel mode (0 = one per core)");
  command.add_flag("--force", args.force,
                   "allow thread counts (and perf's --concurrency) above 4x the cores");
  command.add_option("-o,--opt-level", args.opt_level,
                     "graph optimization level: disable, basic, extended, all");
  command.add_flag("-P,--parallel", args.parallel, "parallel execution mode");
  command.add_flag("--no-arena", args.no_arena,
                   "allocate every tensor from the heap instead of the CPU memory arena");
  command.add_flag("--no-mem-pattern", args.no_mem_pattern,
                   "allocate each intermediate tensor on its own instead of one planned block");
  command
      .add_option("--arena-extend-strategy", args.arena_extend_strategy,
                  "how the arena grows: next-power-of-two or same-as-requested")
      ->check(CLI::IsMember({"next-power-of-two", "same-as-requested"}));
  command.add_flag("--no-spinning", args.no_spinning,
                   "idle intra-op workers sleep at once instead of spinning (less CPU)");
  command
      .add_option("--precision", args.precision,
                  "what the CUDA provider's matrix units (GEMM, convolution) compute float "
                  "tensors in: fp32 (exact), tf32, fp16 or bf16")
      ->check(CLI::IsMember({"fp32", "tf32", "fp16", "bf16"}));
  command.add_option("--max-tensor-bytes", args.max_tensor_bytes,
                     "largest single tensor a node may allocate, e.g. 1000, 512M, 16G "
                     "(default: the machine's physical memory)");
}

Result<std::pair<std::string, std::string>> SplitAssignment(const std::string& text,
                                                            std::string_view option) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    return ORT_ERROR(kInvalidArgument, "{} expects NAME=VALUE, got '{}'", option, text);
  }
  return std::make_pair(text.substr(0, equals), text.substr(equals + 1));
}

Result<size_t> ParseByteSize(const std::string& text, std::string_view option) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, error] = std::from_chars(text.data(), end, value);
  std::string suffix(ptr, end);
  if (suffix.ends_with("iB")) suffix.resize(suffix.size() - 2);
  if (suffix.size() > 1 && suffix.ends_with('B')) suffix.pop_back();
  static constexpr std::string_view kSuffixes = "KMGT";
  const size_t power = suffix.empty() ? 0 : kSuffixes.find(suffix[0]) + 1;
  const int shift = static_cast<int>(power) * 10;
  if (error != std::errc() || ptr == text.data() || suffix.size() > 1 ||
      (!suffix.empty() && power == 0) || value == 0 || value > (SIZE_MAX >> shift)) {
    return ORT_ERROR(kInvalidArgument,
                     "{} '{}': expected a positive byte count such as 1000, 512M or 16G", option,
                     text);
  }
  return static_cast<size_t>(value) << shift;
}

Result<std::vector<int64_t>> ParseDims(const std::string& text) {
  // "1x3,2x3" is a list of shapes (ort perf's sweep), not one shape of four dimensions.
  if (text.find('x') != std::string::npos && text.find(',') != std::string::npos) {
    return ORT_ERROR(kInvalidArgument,
                     "bad shape '{}': one shape expected (a comma-separated list of shapes is a "
                     "sweep, which only ort perf measures)",
                     text);
  }
  std::vector<int64_t> dims;
  size_t position = 0;
  while (position <= text.size()) {
    size_t end = text.find_first_of("x,", position);
    if (end == std::string::npos) end = text.size();
    int64_t value = -1;
    const char* first = text.data() + position;
    const char* last = text.data() + end;
    auto [ptr, error] = std::from_chars(first, last, value);
    if (error != std::errc() || ptr != last || value < 0) {
      return ORT_ERROR(kInvalidArgument, "bad shape '{}' (expected e.g. 1x3x224x224)", text);
    }
    dims.push_back(value);
    position = end + 1;
  }
  return dims;
}

Status CheckThreadCount(int count, std::string_view option, bool force) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (force || count <= kMaxThreadsPerCore * cores) return Status::OK();
  return ORT_ERROR(kInvalidArgument,
                   "{} {} is more than {}x this machine's {} cores; pass --force to use it anyway",
                   option, count, kMaxThreadsPerCore, cores);
}

namespace {

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> parts;
  size_t position = 0;
  while (position <= text.size()) {
    size_t end = text.find(',', position);
    if (end == std::string::npos) end = text.size();
    if (end > position) parts.push_back(text.substr(position, end - position));
    position = end + 1;
  }
  return parts;
}

}  // namespace

Result<std::unique_ptr<InferenceSession>> LoadSession(const SessionArgs& args,
                                                      const ModelEdit& edit) {
  SessionOptions options;
  ORT_ASSIGN_OR_RETURN(options.log_severity, ParseLogSeverity(args.log_level));
  ORT_ASSIGN_OR_RETURN(options.optimization_level, ParseOptimizationLevel(args.opt_level));
  ORT_RETURN_IF_NOT(args.intra_op_threads >= 0 && args.inter_op_threads >= 0,
                    "thread counts must not be negative");
  ORT_RETURN_IF_ERROR(CheckThreadCount(args.intra_op_threads, "--intra-op-threads", args.force));
  ORT_RETURN_IF_ERROR(CheckThreadCount(args.inter_op_threads, "--inter-op-threads", args.force));
  options.intra_op_threads = args.intra_op_threads;
  options.inter_op_threads = args.inter_op_threads;
  options.execution_mode = args.parallel ? ExecutionMode::kParallel : ExecutionMode::kSequential;
  options.enable_profiling = !args.profile_file.empty();
  options.profile_file_path = args.profile_file;
  options.allow_spinning = !args.no_spinning;
  options.pin_threads = args.pin_threads;
  options.enable_mem_pattern = !args.no_mem_pattern;
  options.disabled_optimizers.insert(args.disabled_passes.begin(), args.disabled_passes.end());
  options.strict_optimizer = args.strict_optimizer;
  if (!args.max_tensor_bytes.empty()) {
    ORT_ASSIGN_OR_RETURN(options.max_tensor_bytes,
                         ParseByteSize(args.max_tensor_bytes, "--max-tensor-bytes"));
  }
  for (const auto& entry : args.free_dims) {
    ORT_ASSIGN_OR_RETURN(auto assignment, SplitAssignment(entry, "--free-dim"));
    int64_t value = -1;
    const auto& text = assignment.second;
    auto [ptr, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || ptr != text.data() + text.size() || value < 0) {
      return ORT_ERROR(kInvalidArgument, "--free-dim {}: '{}' is not a non-negative integer",
                       assignment.first, text);
    }
    options.free_dimension_overrides[assignment.first] = value;
  }
  auto session = std::make_unique<InferenceSession>(options);
  ProviderSettings settings;
  settings.cpu.use_arena = !args.no_arena;
  settings.without_device = args.without_device;
  settings.cuda_precision = args.precision;
  settings.cpu.arena.extend_strategy = args.arena_extend_strategy == "same-as-requested"
                                           ? ArenaExtendStrategy::kSameAsRequested
                                           : ArenaExtendStrategy::kNextPowerOfTwo;
  ORT_ASSIGN_OR_RETURN(auto providers, CreateProviders(SplitList(args.providers), settings));
  for (auto& provider : providers)
    ORT_RETURN_IF_ERROR(session->RegisterProvider(std::move(provider)));
  if (edit) {
    ORT_ASSIGN_OR_RETURN(std::unique_ptr<Model> model, LoadModel(args.model));
    ORT_RETURN_IF_ERROR(edit(*model));
    ORT_RETURN_IF_ERROR(session->Load(std::move(model)));
  } else {
    ORT_RETURN_IF_ERROR(session->Load(args.model));
  }
  return session;
}

Result<std::unique_ptr<InferenceSession>> CreateSession(const SessionArgs& args,
                                                        const ModelEdit& edit) {
  ORT_ASSIGN_OR_RETURN(std::unique_ptr<InferenceSession> session, LoadSession(args, edit));
  ORT_RETURN_IF_ERROR(session->Initialize());
  return session;
}

}  // namespace ort::cli
