// Turning one profiled node execution into a "Node" trace event with ONNX Runtime's args
// (op_name, provider, input/output type and shape, activation/parameter/output sizes) plus the
// intra-op pool's scheduling stats for the node.
#pragma once

#include <optional>
#include <span>

#include "lib/ir/graph.h"
#include "lib/ir/value.h"
#include "lib/profiler/profiler.h"
#include "lib/threading/thread_pool.h"

namespace ort {

/// What the executor saw of one node execution.
struct NodeExecution {
  const Node* node = nullptr;
  /// The node's explicit inputs (null when omitted) and its outputs after Compute.
  std::span<const Value* const> inputs;
  std::span<Value* const> outputs;
  /// The run's intra-op pool (may be null) and what the node did on it.
  const ThreadPool* pool = nullptr;
  const ParallelStats* stats = nullptr;
  /// Compute's start and end.
  Profiler::Clock::time_point start;
  Profiler::Clock::time_point end;
  /// A device provider's type: the event goes on that device's own track ("<type> device").
  std::string_view device;
  /// The device's own time for the node's work (CUDA events), when the provider measures it.
  std::optional<double> device_us;
};

/// Records `execution` in `profiler` as the event "<node name>_kernel_time" (category Node).
/// Inputs that are constant initializers count as parameter_size, other inputs as
/// activation_size; sizes are bytes.
void RecordNodeEvent(Profiler& profiler, const NodeExecution& execution);

/// ORT's type-and-shape list: `[{"float":[1,3,224,224]},...]`; omitted values are skipped.
ProfileArgs TypeShapes(std::span<const Value* const> values);

}  // namespace ort
