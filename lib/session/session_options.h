// Options of an inference session and of a single Run.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "lib/common/logging.h"
#include "lib/common/status.h"
#include "lib/memory/allocator.h"
#include "lib/optimizer/optimization_level.h"

namespace ort {

enum class ExecutionMode { kSequential, kParallel };

Result<ExecutionMode> ParseExecutionMode(std::string_view text);

struct SessionOptions {
  /// Threads per intra-op parallel region, the caller included; 0 = one per core.
  int intra_op_threads = 0;
  /// Threads running independent nodes at once in parallel mode; 0 = one per core.
  int inter_op_threads = 0;
  ExecutionMode execution_mode = ExecutionMode::kSequential;
  OptimizationLevel optimization_level = OptimizationLevel::kAll;
  /// Optimizer passes and rewrite rules to skip, by name.
  std::set<std::string> disabled_optimizers;
  /// An optimizer pass that fails or leaves an invalid graph fails Initialize, instead of being
  /// rolled back with a warning (OptimizerOptions::strict).
  bool strict_optimizer = false;
  /// Lay out each run's intermediate tensors in one block computed from an earlier run with the
  /// same input shapes (ONNX Runtime's enable_mem_pattern). Sequential mode only.
  bool enable_mem_pattern = true;
  /// Idle intra-op workers spin briefly before sleeping (lower latency, more CPU).
  bool allow_spinning = true;
  /// Pin intra-op worker i to the (i+2)-th CPU this process may run on, wrapping (the first is
  /// left to the thread that calls Run), as ONNX Runtime's thread affinities do: steadier
  /// timings where the OS would move threads between cores. The calling thread is not pinned.
  bool pin_threads = false;
  LogSeverity log_severity = LogSeverity::kWarning;
  /// No single tensor a node outputs or allocates as scratch may exceed this: a model whose shapes
  /// grow past it (an Expand to [2^31,2^31]) fails with an error naming the node, not an OOM kill.
  size_t max_tensor_bytes = DefaultMaxTensorBytes();
  /// Symbolic dimension name -> value, applied to the model's inputs before initialization.
  std::map<std::string, int64_t> free_dimension_overrides;
  /// Profile the session from its construction: loading and initialization steps, and every node
  /// of every Run until InferenceSession::EndProfiling writes the Chrome trace.
  bool enable_profiling = false;
  /// The trace goes to "<prefix>_<YYYY-MM-DD_HH-MM-SS>.json" (as in ONNX Runtime)...
  std::string profile_file_prefix = "ort_profile";
  /// ...unless this names the trace file exactly.
  std::string profile_file_path;
};

struct RunOptions {
  /// Set from another thread to stop the run between nodes.
  const std::atomic<bool>* terminate = nullptr;
  /// After the run, return the providers' fully free arena regions to the system (ONNX Runtime's
  /// memory.enable_memory_arena_shrinkage): less resident memory between runs, slower next run.
  bool shrink_arenas = false;
};

}  // namespace ort
