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

std::string DimsJson(const std::vector<int64_t>& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(dims[i]);
  }
  return out + "]";
}

// Slot 0 is the thread running the node; slot i + 1 is worker i of the pool.
std::string ThreadStatsJson(Profiler& profiler, const NodeExecution& execution) {
  const ThreadPool* pool = execution.pool;
  const ParallelStats* stats = execution.stats;
  std::string out =
      fmt::format(R"({{"pool_name":{},"pool_size":{},"spinning":{})",
                  JsonString(pool ? pool->name() : ""), pool ? pool->DegreeOfParallelism() : 1,
                  pool != nullptr && pool->allow_spinning() ? "true" : "false");
  if (stats == nullptr) return out + "}";
  out += fmt::format(R"(,"parallel_calls":{},"inline_calls":{},"chunks":{},"threads":[)",
                     stats->parallel_calls(), stats->inline_calls(), stats->total_chunks());
  const std::vector<int64_t> worker_tids = pool ? pool->WorkerThreadIds() : std::vector<int64_t>{};
  bool first = true;
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
    if (!first) out += ',';
    first = false;
    out += fmt::format(R"({{"name":{},"tid":{},"chunks":{}}})", JsonString(name), tid, chunks);
  }
  return out + "]}";
}

}  // namespace

std::string TypeShapeJson(std::span<const Value* const> values) {
  std::string out = "[";
  bool first = true;
  for (const Value* value : values) {
    if (value == nullptr || value->IsEmpty()) continue;
    if (!first) out += ',';
    first = false;
    if (value->IsTensor()) {
      const Tensor& tensor = value->tensor();
      out += fmt::format("{{{}:{}}}", JsonString(DataTypeName(tensor.dtype())),
                         DimsJson(tensor.shape().dims()));
    } else if (value->IsSequence()) {
      // A sequence has no single shape: its type and length.
      const TensorSequence& sequence = value->sequence();
      out += fmt::format("{{{}:[{}]}}",
                         JsonString("seq(" + std::string(DataTypeName(sequence.elem_type)) + ")"),
                         sequence.tensors.size());
    } else {
      out += R"({"none":[]})";
    }
  }
  return out + "]";
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
      {"op_name", JsonString(node.op_type())},
      {"provider", JsonString(node.provider())},
      {"node_index", std::to_string(node.index())},
      {"graph", JsonString(graph.name())},
      {"input_type_shape", TypeShapeJson(execution.inputs)},
      {"output_type_shape", TypeShapeJson(outputs)},
      {"activation_size", std::to_string(activation_bytes)},
      {"parameter_size", std::to_string(parameter_bytes)},
      {"output_size", std::to_string(output_bytes)},
      {"thread_scheduling_stats", ThreadStatsJson(profiler, execution)},
  };
  if (!node.domain().empty()) event.args.emplace_back("domain", JsonString(node.domain()));
  if (execution.device_us) {
    event.args.emplace_back("device_duration_us", fmt::format("{:.3f}", *execution.device_us));
  }
  profiler.Record(std::move(event));
}

}  // namespace ort
