// InferenceSession: load a model, initialize it (free-dimension overrides, optimization,
// partitioning, kernel creation, planning) and run it. Run is const and may be called from
// several threads at once.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lib/framework/execution_provider.h"
#include "lib/ir/model.h"
#include "lib/optimizer/graph_optimizer.h"
#include "lib/optimizer/optimization_record.h"
#include "lib/profiler/profiler.h"
#include "lib/session/session_options.h"
#include "lib/session/session_state.h"
#include "lib/threading/thread_pool.h"

namespace ort {

using NamedValue = std::pair<std::string, Value>;

/// The process-wide set-up every session needs once: the ONNX schema registry, with this
/// engine's guards around its inference functions. The first session to load a model does it;
/// an application calls this at start-up so that no session pays for it, as ONNX Runtime does
/// when it creates its environment. Thread-safe; later calls return at once.
void InitializeRuntime();

class InferenceSession {
 public:
  explicit InferenceSession(SessionOptions options = {});
  ~InferenceSession();
  InferenceSession(const InferenceSession&) = delete;
  InferenceSession& operator=(const InferenceSession&) = delete;

  /// Adds a provider; earlier registrations take nodes first. A fallback provider
  /// (IExecutionProvider::IsFallback: the CPU provider) must be registered.
  Status RegisterProvider(std::unique_ptr<IExecutionProvider> provider);
  /// Adds the caller's own optimizer pass (OptimizerOptions::custom_passes); it runs after the
  /// built-in passes of its level. Its name must not be taken by another pass.
  Status RegisterGraphTransformer(std::unique_ptr<GraphTransformer> pass);

  Status Load(const std::string& path);
  Status LoadFromBytes(const void* data, size_t size);
  Status Load(std::unique_ptr<Model> model);

  /// Prepares the loaded model for Run. Call once.
  Status Initialize();

  /// Runs only the steps of Initialize that rewrite the model (free-dimension overrides,
  /// function expansion, graph optimization, recorded in the model's metadata) so that model()
  /// can be saved optimized; `observer` also sees every optimizer step. The session cannot be
  /// initialized or run afterwards.
  Status OptimizeForSaving(const OptimizerObserver& observer = {});

  /// Runs the model. `feeds` name graph inputs; inputs that have an initializer may be left
  /// out. `output_names` empty means every graph output, in graph order.
  Status Run(const RunOptions& run_options, std::span<const NamedValue> feeds,
             std::span<const std::string> output_names, std::vector<Value>* outputs) const;

  /// Graph inputs a caller feeds (inputs backed by initializers excluded).
  std::vector<ValueInfo> InputInfos() const;
  std::vector<ValueInfo> OutputInfos() const;
  const Model& model() const { return *model_; }
  /// For tools that go on with the loaded model themselves instead of initializing the session
  /// (ort optimize partitions the saved model to report placement).
  Model& mutable_model() { return *model_; }
  const SessionOptions& options() const { return options_; }
  const std::vector<std::unique_ptr<IExecutionProvider>>& providers() const { return providers_; }
  /// The optimizer passes (or rules) that broke the graph and were rolled back while this
  /// session rewrote its model, in order (empty in strict mode, and normally).
  const std::vector<OptimizerRollback>& optimizer_rollbacks() const { return rollbacks_; }
  /// Bytes the providers' arena allocators hold for live tensors (0 without arenas).
  size_t ArenaBytesInUse() const;
  /// The main graph's nodes in execution order (after Initialize).
  const std::vector<const Node*>& ExecutionOrder() const;
  /// The main graph made executable (kernels, allocation plan, memory patterns); null before
  /// Initialize.
  const SessionState* state() const { return state_.get(); }

  /// With SessionOptions::enable_profiling: stops profiling and writes the Chrome trace to
  /// profile_file_path, or to "<profile_file_prefix>_<date>_<time>.json"; returns the path.
  /// Runs after this are not profiled. Errors when profiling is off or already ended.
  Result<std::string> EndProfiling();
  /// The events profiled so far (empty without profiling), also after EndProfiling; summarize
  /// them with SummarizeProfile (lib/profiler/profile_summary.h).
  std::vector<ProfileEvent> ProfilingEvents() const;

 private:
  /// Initialize's pipeline: rewrite the model (below), partition it over the providers and
  /// insert copies between devices, create kernels and plan execution, create thread pools.
  Status InitializeSteps(Profiler* profiler);
  /// The steps of Initialize that rewrite the model: free-dimension overrides, function
  /// expansion, and optimization (or resuming a model optimized offline).
  Status RewriteModel(Profiler* profiler, const OptimizerObserver& observer, bool for_saving);
  Status ApplyFreeDimensionOverrides(Profiler* profiler);
  // An error naming the input when its overridden shape cannot fit max_tensor_bytes.
  Status CheckOverriddenInput(const std::string& input, const ValueType& type) const;
  Status ExpandFunctions(Profiler* profiler);
  /// Optimizes the model, skipping levels its optimization record says were applied;
  /// `for_saving` (OptimizeForSaving) leaves out the session-only passes.
  Status Optimize(Profiler* profiler, const OptimizerObserver& observer, bool for_saving);
  /// Reads the model's optimization record into `record` (an empty one when it has none or an
  /// unreadable one) and says which levels this session may skip.
  ResumePoint FindResume(OptimizationRecord& record) const;
  Status PartitionAndInsertCopies(Profiler* profiler);
  Status CreateSessionState(Profiler* profiler);
  Status CreateThreadPools(Profiler* profiler);
  std::vector<std::string> ProviderTypes() const;
  /// The profiler while it records, else null.
  Profiler* ActiveProfiler() const {
    return profiler_ && profiler_->enabled() ? profiler_.get() : nullptr;
  }
  Status CheckFeed(const std::string& name, const Value& value) const;
  void ShrinkArenas() const;

  SessionOptions options_;
  std::vector<std::unique_ptr<IExecutionProvider>> providers_;
  std::vector<IExecutionProvider*> provider_list_;  // providers_, in priority order
  std::vector<std::shared_ptr<const GraphTransformer>> custom_passes_;
  std::vector<OptimizerRollback> rollbacks_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<SessionState> state_;
  std::unique_ptr<ThreadPool> intra_op_pool_;
  std::unique_ptr<ThreadPool> inter_op_pool_;  // parallel mode only
  std::unique_ptr<Profiler> profiler_;         // null unless enable_profiling
  bool initialized_ = false;
  bool rewritten_ = false;  // RewriteModel ran (by Initialize or OptimizeForSaving)
};

}  // namespace ort
