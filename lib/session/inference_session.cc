#include "lib/session/inference_session.h"

#include <algorithm>
#include <ctime>
#include <system_error>
#include <thread>

#include "lib/common/cpu_info.h"
#include "lib/common/logging.h"
#include "lib/memory/arena.h"
#include "lib/onnx/function_expansion.h"
#include "lib/onnx/inference_guards.h"
#include "lib/onnx/model_loader.h"
#include "lib/optimizer/graph_optimizer.h"
#include "lib/optimizer/optimization_record.h"
#include "lib/session/memcpy_insertion.h"
#include "lib/session/partitioner.h"

namespace ort {

void InitializeRuntime() { GuardOnnxInference(); }
namespace {

int DefaultThreadCount() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

std::string ShapeText(const TensorShape& shape) { return shape.ToString(); }

// `observer`, plus an event in `profiler` (when given) for every optimizer step; rollbacks are
// also kept in `rollbacks`.
OptimizerObserver TracingObserver(Profiler* profiler, const OptimizerObserver& observer,
                                  std::vector<OptimizerRollback>& rollbacks) {
  return [profiler, observer, &rollbacks](const OptimizerStep& step) {
    if (observer) observer(step);
    if (step.kind == OptimizerStep::Kind::kRollback) rollbacks.push_back(*step.rollback);
    if (profiler == nullptr) return;
    if (step.kind == OptimizerStep::Kind::kRollback) {
      profiler->Record(ProfileCategory::kSession, "optimizer_rollback_" + std::string(step.name),
                       step.start, step.end,
                       {{"level", OptimizationLevelName(step.level)},
                        {"iteration", step.iteration},
                        {"rule", step.rollback->rule},
                        {"node", step.rollback->node},
                        {"reason", step.rollback->reason}});
      return;
    }
    const bool pass = step.kind == OptimizerStep::Kind::kPass;
    ProfileArgs args = {{"level", OptimizationLevelName(step.level)},
                        {pass ? "iteration" : "iterations", step.iteration},
                        {"changed", step.changed}};
    if (!step.rule_fires.empty()) {
      std::string rules;
      for (const RuleFireCount& fired : step.rule_fires) {
        rules += fmt::format("{}{}={}", rules.empty() ? "" : ",", fired.rule, fired.count);
      }
      args["rules_fired"] = rules;
    }
    profiler->Record(ProfileCategory::kSession,
                     (pass ? "optimizer_pass_" : "optimizer_level_") + std::string(step.name),
                     step.start, step.end, std::move(args));
  };
}

}  // namespace

InferenceSession::InferenceSession(SessionOptions options) : options_(std::move(options)) {
  SetLogSeverity(options_.log_severity);
  if (options_.enable_profiling && kProfilingCompiledIn) profiler_ = std::make_unique<Profiler>();
}

InferenceSession::~InferenceSession() = default;

Status InferenceSession::RegisterProvider(std::unique_ptr<IExecutionProvider> provider) {
  if (initialized_)
    return ORT_ERROR(kInvalidArgument, "providers must be registered before Initialize");
  for (const auto& existing : providers_) {
    if (existing->type() == provider->type()) {
      return ORT_ERROR(kInvalidArgument, "provider '{}' is registered twice", provider->type());
    }
  }
  provider_list_.push_back(provider.get());
  providers_.push_back(std::move(provider));
  return Status::OK();
}

Status InferenceSession::RegisterGraphTransformer(std::unique_ptr<GraphTransformer> pass) {
  if (initialized_ || rewritten_) {
    return ORT_ERROR(kInvalidArgument, "optimizer passes must be registered before Initialize");
  }
  std::vector<std::string> taken = DisablePassNames();
  for (const auto& custom : custom_passes_) taken.push_back(custom->name());
  if (std::find(taken.begin(), taken.end(), pass->name()) != taken.end()) {
    return ORT_ERROR(kInvalidArgument,
                     "optimizer pass name '{}' is taken by a built-in pass or rule or an earlier "
                     "registration",
                     pass->name());
  }
  custom_passes_.push_back(std::move(pass));
  return Status::OK();
}

Status InferenceSession::Load(const std::string& path) {
  ScopedProfileEvent event(ActiveProfiler(), "model_loading");
  event.AddArg("path", path);
  ORT_ASSIGN_OR_RETURN(auto model, LoadModel(path));
  return Load(std::move(model));
}

Status InferenceSession::LoadFromBytes(const void* data, size_t size) {
  ScopedProfileEvent event(ActiveProfiler(), "model_loading");
  event.AddArg("bytes", size);
  ORT_ASSIGN_OR_RETURN(auto model, LoadModelFromBytes(data, size, "."));
  return Load(std::move(model));
}

Status InferenceSession::Load(std::unique_ptr<Model> model) {
  if (model_) return ORT_ERROR(kInvalidArgument, "a model is already loaded");
  if (options_.enable_profiling && !kProfilingCompiledIn) {
    return ORT_ERROR(kInvalidArgument,
                     "profiling was compiled out of this build (ORT_ENABLE_PROFILING=OFF)");
  }
  model_ = std::move(model);
  return Status::OK();
}

Status InferenceSession::CheckOverriddenInput(const std::string& input,
                                              const ValueType& type) const {
  // The known dimensions bound the input from below: when they alone overflow or pass the
  // tensor limit, no feed can ever match, so the overrides are refused before anything plans
  // memory from them.
  std::vector<int64_t> known;
  for (const Dimension& dim : *type.shape) {
    if (dim.IsKnown()) known.push_back(dim.value);
  }
  // An input of unknown element type is bounded by its element count alone.
  const DataType element =
      type.elem_type == DataType::kUndefined ? DataType::kUint8 : type.elem_type;
  const auto bytes = TensorBytes(element, TensorShape(known));
  if (!bytes.ok() || *bytes > options_.max_tensor_bytes) {
    const std::string need = bytes.ok() ? FormatBytes(*bytes) : "more than int64 bytes";
    return ORT_ERROR(kInvalidArgument,
                     "input '{}' with the free dimension overrides is {}{} and would need {}, "
                     "above the max-tensor-bytes limit of {}",
                     input, DataTypeName(type.elem_type), SymbolicShapeToString(*type.shape), need,
                     FormatBytes(options_.max_tensor_bytes));
  }
  return Status::OK();
}

Status InferenceSession::ApplyFreeDimensionOverrides(Profiler* profiler) {
  ScopedProfileEvent event(profiler, "free_dimension_overrides");
  if (options_.free_dimension_overrides.empty()) return Status::OK();
  Graph& graph = model_->graph();
  std::map<std::string, int64_t> unused = options_.free_dimension_overrides;
  for (const auto& input : graph.inputs()) {
    const ValueInfo* info = graph.FindValueInfo(input);
    if (info == nullptr || !info->type.IsTensor() || !info->type.shape) continue;
    ValueType type = info->type;
    bool changed = false;
    for (auto& dim : *type.shape) {
      auto it = options_.free_dimension_overrides.find(dim.param);
      if (!dim.IsKnown() && it != options_.free_dimension_overrides.end()) {
        dim = Dimension::Known(it->second);
        unused.erase(it->first);
        changed = true;
      }
    }
    if (!changed) continue;
    ORT_RETURN_IF_ERROR(CheckOverriddenInput(input, type));
    graph.SetValueType(input, std::move(type));
  }
  for (const auto& [name, value] : unused) {
    ORT_LOG_WARNING("{}: no input has a free dimension named '{}'", model_->path, name);
  }
  InferModelTypes(*model_);
  return Status::OK();
}

Status InferenceSession::Initialize() {
  if (initialized_) return ORT_ERROR(kInvalidArgument, "the session is already initialized");
  if (rewritten_) {
    return ORT_ERROR(kInvalidArgument,
                     "the session's model was optimized for saving; create a "
                     "new session to run it");
  }
  if (!model_) return ORT_ERROR(kInvalidArgument, "no model is loaded");
  Profiler* profiler = ActiveProfiler();
  ScopedProfileEvent total(profiler, "session_initialization");
  Status status = InitializeSteps(profiler);
  if (!status.ok()) return status.WithContext(model_->path);
  initialized_ = true;
  return Status::OK();
}

Status InferenceSession::OptimizeForSaving(const OptimizerObserver& observer) {
  if (initialized_ || rewritten_) {
    return ORT_ERROR(kInvalidArgument, "the session's model was already prepared");
  }
  if (!model_) return ORT_ERROR(kInvalidArgument, "no model is loaded");
  Status status = RewriteModel(ActiveProfiler(), observer, /*for_saving=*/true);
  if (!status.ok()) return status.WithContext(model_->path);
  return Status::OK();
}

Status InferenceSession::InitializeSteps(Profiler* profiler) {
  ORT_RETURN_IF_ERROR(RewriteModel(profiler, {}, /*for_saving=*/false));
  ORT_RETURN_IF_ERROR(PartitionAndInsertCopies(profiler));
  ORT_RETURN_IF_ERROR(CreateSessionState(profiler));
  return CreateThreadPools(profiler);
}

Status InferenceSession::RewriteModel(Profiler* profiler, const OptimizerObserver& observer,
                                      bool for_saving) {
  rewritten_ = true;
  ORT_RETURN_IF_ERROR(ApplyFreeDimensionOverrides(profiler));
  ORT_RETURN_IF_ERROR(ExpandFunctions(profiler));
  return Optimize(profiler, observer, for_saving);
}

Status InferenceSession::ExpandFunctions(Profiler* profiler) {
  ScopedProfileEvent event(profiler, "function_expansion");
  // A function node some provider has a kernel for runs as that kernel; the others expand.
  return ExpandFunctionNodes(*model_, [this](const Node& node) {
    return std::any_of(provider_list_.begin(), provider_list_.end(),
                       [&node](const IExecutionProvider* provider) {
                         return provider->kernel_registry().Find(node) != nullptr;
                       });
  });
}

ResumePoint InferenceSession::FindResume(OptimizationRecord& record) const {
  auto read = ReadOptimizationRecord(*model_);
  if (read.ok()) {
    record = std::move(*read);
  } else {
    ORT_LOG_WARNING("{}: ignoring the optimization record: {}", model_->path,
                    read.status().message());
  }
  const ResumePoint resume = FindResumePoint(record, ProviderTypes(), options_.disabled_optimizers);
  const bool runs_levels =
      static_cast<int>(options_.optimization_level) > static_cast<int>(resume.applied_level);
  if (runs_levels && !resume.reason.empty()) {
    ORT_LOG_WARNING("{}: {}", model_->path, resume.reason);
  } else if (resume.applied_level != OptimizationLevel::kDisable) {
    ORT_LOG_INFO("{}: optimized offline up to level '{}'; skipping the levels up to it",
                 model_->path, OptimizationLevelName(resume.applied_level));
  }
  return resume;
}

Status InferenceSession::Optimize(Profiler* profiler, const OptimizerObserver& observer,
                                  bool for_saving) {
  ScopedProfileEvent event(profiler, "graph_optimization");
  event.AddArg("level", OptimizationLevelName(options_.optimization_level));
  OptimizationRecord record;
  const ResumePoint resume = FindResume(record);
  event.AddArg("already_applied", OptimizationLevelName(resume.applied_level));
  ORT_RETURN_IF_ERROR(CheckNchwcBlockSize(*model_, NchwcBlockSize()));
  OptimizerOptions optimizer_options;
  optimizer_options.level = options_.optimization_level;
  optimizer_options.disabled_passes = options_.disabled_optimizers;
  optimizer_options.applied_level = resume.applied_level;
  optimizer_options.strict = options_.strict_optimizer;
  optimizer_options.for_saving = for_saving;
  optimizer_options.custom_passes = custom_passes_;
  ORT_RETURN_IF_ERROR(OptimizeGraph(*model_, optimizer_options, provider_list_,
                                    TracingObserver(profiler, observer, rollbacks_)));
  event.AddArg("rollbacks", rollbacks_.size());
  RecordNchwcBlockSize(*model_, NchwcBlockSize());
  if (static_cast<int>(options_.optimization_level) > static_cast<int>(resume.applied_level)) {
    WriteOptimizationRecord(UpdatedRecord(record, resume, options_.optimization_level,
                                          ProviderTypes(), options_.disabled_optimizers),
                            *model_);
  }
  return Status::OK();
}

Status InferenceSession::PartitionAndInsertCopies(Profiler* profiler) {
  ScopedProfileEvent event(profiler, "graph_partitioning");
  ORT_RETURN_IF_ERROR(PartitionGraph(model_->graph(), provider_list_));
  ORT_ASSIGN_OR_RETURN(const MemcpyCounts copies,
                       InsertMemcpyNodes(model_->graph(), provider_list_));
  if (copies.to_device + copies.to_host > 0) {
    // As ONNX Runtime warns: every copy is a transfer on every run.
    ORT_LOG_WARNING(
        "{} Memcpy nodes copy values between devices on every run ({} to the device, {} to the "
        "host)",
        copies.to_device + copies.to_host, copies.to_device, copies.to_host);
  }
  if (copies.weights > 0) ORT_LOG_INFO("{} weights go to the device once", copies.weights);
  event.AddArg("memcpy_to_device", copies.to_device);
  event.AddArg("memcpy_to_host", copies.to_host);
  event.AddArg("weights_to_device", copies.weights);
  return Status::OK();
}

Status InferenceSession::CreateSessionState(Profiler* profiler) {
  const bool parallel = options_.execution_mode == ExecutionMode::kParallel;
  ExecutionPlanOptions plan_options;
  plan_options.memory_pattern = options_.enable_mem_pattern && !parallel;
  plan_options.parallel = parallel;
  // A profiled session keeps pre-packed weights so that its trace reports every input's shape.
  plan_options.release_prepacked = !options_.enable_profiling;
  ORT_ASSIGN_OR_RETURN(
      state_, SessionState::Create(model_->graph(), provider_list_, plan_options, profiler));
  // The packed copies replace these weights; keeping the originals would double their memory.
  for (const std::string& name : state_->released_constants()) {
    model_->graph().RemoveInitializer(name);
  }
  return Status::OK();
}

Status InferenceSession::CreateThreadPools(Profiler* profiler) {
  ScopedProfileEvent event(profiler, "thread_pool_creation");
  const int threads =
      options_.intra_op_threads > 0 ? options_.intra_op_threads : DefaultThreadCount();
  event.AddArg("intra_op_threads", threads);
  const int inter_threads =
      options_.inter_op_threads > 0 ? options_.inter_op_threads : DefaultThreadCount();
  try {
    std::vector<int> worker_cpus;
    if (options_.pin_threads) {
      // Worker i on the (i+2)-th allowed CPU, wrapping: the first is the caller's.
      worker_cpus = AllowedCpus();
      if (worker_cpus.empty()) ORT_LOG_WARNING("pin_threads: this system does not report CPUs");
      if (!worker_cpus.empty()) {
        std::rotate(worker_cpus.begin(), worker_cpus.begin() + 1, worker_cpus.end());
      }
      event.AddArg("pinned", !worker_cpus.empty());
    }
    intra_op_pool_ = std::make_unique<ThreadPool>("intra-op", threads, options_.allow_spinning,
                                                  std::move(worker_cpus));
    if (options_.execution_mode == ExecutionMode::kParallel) {
      event.AddArg("inter_op_threads", inter_threads);
      inter_op_pool_ =
          std::make_unique<ThreadPool>("inter-op", inter_threads, options_.allow_spinning);
    }
  } catch (const std::system_error& error) {
    return ORT_ERROR(
        kRuntimeError, "cannot start the thread pools ({} intra-op, {} inter-op threads): {}",
        threads, options_.execution_mode == ExecutionMode::kParallel ? inter_threads : 0,
        error.what());
  }
  return Status::OK();
}

std::vector<std::string> InferenceSession::ProviderTypes() const {
  std::vector<std::string> types;
  for (const IExecutionProvider* provider : provider_list_) types.push_back(provider->type());
  return types;
}

std::vector<ValueInfo> InferenceSession::InputInfos() const {
  std::vector<ValueInfo> result;
  const Graph& graph = model_->graph();
  for (const auto& name : graph.InputsWithoutInitializers()) {
    const ValueInfo* info = graph.FindValueInfo(name);
    result.push_back(info ? *info : ValueInfo{name, {}, {}});
  }
  return result;
}

std::vector<ValueInfo> InferenceSession::OutputInfos() const {
  std::vector<ValueInfo> result;
  const Graph& graph = model_->graph();
  for (const auto& name : graph.outputs()) {
    const ValueInfo* info = graph.FindValueInfo(name);
    result.push_back(info ? *info : ValueInfo{name, {}, {}});
  }
  return result;
}

const std::vector<const Node*>& InferenceSession::ExecutionOrder() const {
  static const std::vector<const Node*> kEmpty;
  return state_ ? state_->execution_order() : kEmpty;
}

namespace {

Status CheckFeedTensor(const std::string& name, const ValueType& type, const Tensor& tensor) {
  if (type.elem_type != DataType::kUndefined && tensor.dtype() != type.elem_type) {
    return ORT_ERROR(kInvalidArgument, "input '{}' expects element type {}, got {} ({})", name,
                     DataTypeName(type.elem_type), DataTypeName(tensor.dtype()), tensor.Describe());
  }
  if (!type.shape) return Status::OK();
  const auto& dims = *type.shape;
  if (dims.size() != tensor.shape().rank()) {
    return ORT_ERROR(kInvalidArgument, "input '{}' expects rank {} {}, got shape {}", name,
                     dims.size(), SymbolicShapeToString(dims), ShapeText(tensor.shape()));
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].IsKnown() && dims[i].value != tensor.shape()[i]) {
      return ORT_ERROR(kInvalidArgument,
                       "input '{}' expects shape {}, got {} (dimension {} differs)", name,
                       SymbolicShapeToString(dims), ShapeText(tensor.shape()), i);
    }
  }
  return Status::OK();
}

Status CheckFeedType(const std::string& name, const ValueType& type, const Value& value) {
  const auto mismatch = [&] {
    return ORT_ERROR(kInvalidArgument, "input '{}' expects {}, got {}", name, type.ToString(),
                     value.Describe());
  };
  switch (type.kind) {
    case ValueType::Kind::kUnknown:
      return Status::OK();
    case ValueType::Kind::kTensor:
      if (!value.IsTensor()) return mismatch();
      return CheckFeedTensor(name, type, value.tensor());
    case ValueType::Kind::kSequence: {
      if (!value.IsSequence()) return mismatch();
      const ValueType* element = type.element.get();
      if (element == nullptr || !element->IsTensor() ||
          element->elem_type == DataType::kUndefined) {
        return Status::OK();
      }
      const TensorSequence& sequence = value.sequence();
      const bool typed =
          sequence.elem_type == DataType::kUndefined || sequence.elem_type == element->elem_type;
      const bool tensors_typed =
          std::all_of(sequence.tensors.begin(), sequence.tensors.end(),
                      [&](const Tensor& tensor) { return tensor.dtype() == element->elem_type; });
      return typed && tensors_typed ? Status::OK() : mismatch();
    }
    case ValueType::Kind::kOptional:
      if (value.IsNone() || type.element == nullptr) return Status::OK();
      return CheckFeedType(name, *type.element, value);
    case ValueType::Kind::kMap:
    case ValueType::Kind::kSparseTensor:
      return ORT_ERROR(kInvalidArgument,
                       "input '{}' is declared {}, a kind of value this engine does not run", name,
                       type.ToString());
  }
  return Status::OK();
}

}  // namespace

Status InferenceSession::CheckFeed(const std::string& name, const Value& value) const {
  const ValueInfo* info = model_->graph().FindValueInfo(name);
  return info == nullptr ? Status::OK() : CheckFeedType(name, info->type, value);
}

Status InferenceSession::Run(const RunOptions& run_options, std::span<const NamedValue> feeds,
                             std::span<const std::string> output_names,
                             std::vector<Value>* outputs) const {
  if (!initialized_) return ORT_ERROR(kInvalidArgument, "the session is not initialized");
  const Graph& graph = model_->graph();
  const auto& input_names = state_->input_names();
  std::vector<Value> inputs(input_names.size());
  for (const auto& [name, value] : feeds) {
    auto it = std::find(input_names.begin(), input_names.end(), name);
    if (it == input_names.end()) {
      return ORT_ERROR(kInvalidArgument, "{}: '{}' is not an input of the model", model_->path,
                       name);
    }
    Status status = CheckFeed(name, value);
    if (!status.ok()) return status.WithContext(model_->path);
    inputs[static_cast<size_t>(it - input_names.begin())] = value;
  }
  for (size_t i = 0; i < input_names.size(); ++i) {
    if (inputs[i].IsEmpty() && graph.GetInitializer(input_names[i]) == nullptr) {
      return ORT_ERROR(kInvalidArgument, "{}: required input '{}' was not given", model_->path,
                       input_names[i]);
    }
  }

  RunContext run;
  run.intra_op_pool = intra_op_pool_.get();
  run.inter_op_pool = inter_op_pool_.get();
  run.terminate = run_options.terminate;
  run.max_tensor_bytes = options_.max_tensor_bytes;
  run.profiler = ActiveProfiler();
  if (run.profiler != nullptr) {
    // Named before the nodes run, so that thread stats and events use the pools' names.
    run.profiler->NamePoolThreads(*intra_op_pool_);
    if (inter_op_pool_) run.profiler->NamePoolThreads(*inter_op_pool_);
  }
  std::vector<Value> all_outputs;
  const auto start = run.profiler ? Profiler::Clock::now() : Profiler::Clock::time_point();
  Status status;
  const bool first_pattern = state_->MemoryPatternCount() == 0;
  {
    const ThreadPool::ActiveScope intra_active(intra_op_pool_.get());
    const ThreadPool::ActiveScope inter_active(inter_op_pool_.get());
    status = state_->Run(run, inputs, {}, all_outputs);
  }
  // The run that recorded the first memory pattern allocated every tensor on its own; later runs
  // take one block instead, which the arena's regions of that run seldom fit, so they go back
  // rather than stay resident beside it (R(2+1)-D held 134 MB of them next to a 96 MB block).
  if (run_options.shrink_arenas || (first_pattern && state_->MemoryPatternCount() > 0)) {
    ShrinkArenas();
  }
  if (run.profiler != nullptr) {
    run.profiler->Record(ProfileCategory::kSession, "model_run", start, Profiler::Clock::now(),
                         {{"ok", status.ok()}});
  }
  if (!status.ok()) return status.WithContext(model_->path);

  outputs->clear();
  if (output_names.empty()) {
    *outputs = std::move(all_outputs);
    return Status::OK();
  }
  const auto& graph_outputs = state_->output_names();
  for (const auto& name : output_names) {
    auto it = std::find(graph_outputs.begin(), graph_outputs.end(), name);
    if (it == graph_outputs.end()) {
      return ORT_ERROR(kInvalidArgument, "{}: '{}' is not an output of the model", model_->path,
                       name);
    }
    outputs->push_back(all_outputs[static_cast<size_t>(it - graph_outputs.begin())]);
  }
  return Status::OK();
}

void InferenceSession::ShrinkArenas() const {
  for (const auto& provider : providers_) {
    if (auto* arena = dynamic_cast<ArenaAllocator*>(provider->allocator().get())) arena->Shrink();
  }
}

size_t InferenceSession::ArenaBytesInUse() const {
  size_t bytes = 0;
  for (const auto& provider : providers_) {
    if (auto* arena = dynamic_cast<ArenaAllocator*>(provider->allocator().get())) {
      bytes += arena->GetStats().bytes_in_use;
    }
  }
  return bytes;
}

Result<std::string> InferenceSession::EndProfiling() {
  if (!profiler_) {
    return ORT_ERROR(kInvalidArgument,
                     "profiling is not enabled (SessionOptions::enable_profiling)");
  }
  if (!profiler_->enabled()) return ORT_ERROR(kInvalidArgument, "profiling has already ended");
  profiler_->Stop();
  if (intra_op_pool_) profiler_->NamePoolThreads(*intra_op_pool_);
  if (inter_op_pool_) profiler_->NamePoolThreads(*inter_op_pool_);
  std::string path = options_.profile_file_path;
  if (path.empty()) {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y-%m-%d_%H-%M-%S", &local);
    path = options_.profile_file_prefix + "_" + stamp + ".json";
  }
  ORT_RETURN_IF_ERROR(profiler_->WriteTrace(path));
  return path;
}

std::vector<ProfileEvent> InferenceSession::ProfilingEvents() const {
  return profiler_ ? profiler_->Events() : std::vector<ProfileEvent>{};
}

}  // namespace ort
