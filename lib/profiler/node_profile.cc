#include "lib/profiler/node_profile.h"

#include <functional>
#include <string>
#include <vector>

namespace ort {
namespace {

size_t ValueBytes(const Value& value) {
  if (value.IsTensor()) return value.tensor().SizeInBytes();
  size_t bytes = 0;
  if (value.IsSequence()) {
    for (const auto& tensor : value.sequence().tensors) bytes += tensor.SizeInBytes();
  }
  return bytes;
}

// Slot 0 is the thread running the node; slot i + 1 is worker i of the pool.
ProfileArgs ThreadStats(Profiler& profiler, const NodeExecution& execution) {
  const ThreadPool* pool = execution.pool;
  const ParallelStats* stats = execution.stats;
  ProfileArgs out = {{"pool_name", pool ? pool->name() : ""},
                     {"pool_size", pool ? pool->DegreeOfParallelism() : 1},
                     {"spinning", pool != nullptr && pool->allow_spinning()}};
  if (stats == nullptr) return out;
  out["parallel_calls"] = stats->parallel_calls();
  out["inline_calls"] = stats->inline_calls();
  out["chunks"] = stats->total_chunks();
  const std::vector<int64_t> worker_tids = pool ? pool->WorkerThreadIds() : std::vector<int64_t>{};
  ProfileArgs threads = ProfileArgs::array();
  for (int slot = 0; slot < stats->thread_slots(); ++slot) {
    const int64_t chunks = stats->chunks(slot);
    if (chunks == 0) continue;
    int64_t tid = CurrentThreadId();
    std::string name;
    if (slot == 0) {
      name = profiler.ThreadName(tid);
    } else {
      const auto worker = static_cast<size_t>(slot - 1);
      tid = worker < worker_tids.size() ? worker_tids[worker] : 0;
      name = pool->name() + "-" + std::to_string(worker);
    }
    threads.push_back(ProfileArgs::object({{"name", name}, {"tid", tid}, {"chunks", chunks}}));
  }
  out["threads"] = std::move(threads);
  return out;
}

}  // namespace

ProfileArgs TypeShapes(std::span<const Value* const> values) {
  ProfileArgs out = ProfileArgs::array();
  for (const Value* value : values) {
    if (value == nullptr || value->IsEmpty()) continue;
    if (value->IsTensor()) {
      const Tensor& tensor = value->tensor();
      out.push_back(ProfileArgs::object({{DataTypeName(tensor.dtype()), tensor.shape().dims()}}));
    } else if (value->IsSequence()) {
      // A sequence has no single shape: its type and length.
      const TensorSequence& sequence = value->sequence();
      out.push_back(
          ProfileArgs::object({{"seq(" + std::string(DataTypeName(sequence.elem_type)) + ")",
                                ProfileArgs::array({sequence.tensors.size()})}}));
    } else {
      out.push_back(ProfileArgs::object({{"none", ProfileArgs::array()}}));
    }
  }
  return out;
}

void RecordNodeEvent(Profiler& profiler, const NodeExecution& execution) {
  const Node& node = *execution.node;
  const Graph& graph = node.graph();
  size_t activation_bytes = 0;
  size_t parameter_bytes = 0;
  for (size_t i = 0; i < execution.inputs.size(); ++i) {
    const Value* value = execution.inputs[i];
    if (value == nullptr) continue;
    // Only initializers a feed cannot override are weights; overridable ones are activations.
    const bool constant = i < node.inputs().size() &&
                          graph.GetConstantInitializer(node.inputs()[i], false) != nullptr;
    (constant ? parameter_bytes : activation_bytes) += ValueBytes(*value);
  }
  size_t output_bytes = 0;
  std::vector<const Value*> outputs;
  for (const Value* value : execution.outputs) {
    outputs.push_back(value);
    if (value != nullptr) output_bytes += ValueBytes(*value);
  }

  ProfileEvent event;
  event.category = ProfileCategory::kNode;
  event.node_name =
      node.name().empty() ? node.op_type() + "_" + std::to_string(node.index()) : node.name();
  event.op_type = node.op_type();
  event.name = event.node_name + "_kernel_time";
  event.ts_us = profiler.Microseconds(execution.start);
  event.dur_us = std::chrono::duration<double, std::micro>(execution.end - execution.start).count();
  event.tid = CurrentThreadId();
  if (!execution.device.empty()) {
    // A track id no OS thread has: negative, one per device provider.
    event.tid = -1 - static_cast<int64_t>(std::hash<std::string_view>{}(execution.device) % 1024);
    profiler.NameThread(event.tid, std::string(execution.device) + " device");
  }
  event.args = {
      {"op_name", node.op_type()},
      {"provider", node.provider()},
      {"node_index", node.index()},
      {"graph", graph.name()},
      {"input_type_shape", TypeShapes(execution.inputs)},
      {"output_type_shape", TypeShapes(outputs)},
      {"activation_size", activation_bytes},
      {"parameter_size", parameter_bytes},
      {"output_size", output_bytes},
      {"thread_scheduling_stats", ThreadStats(profiler, execution)},
  };
  if (!node.domain().empty()) event.args["domain"] = node.domain();
  if (execution.device_us) event.args["device_duration_us"] = *execution.device_us;
  profiler.Record(std::move(event));
}

}  // namespace ort
