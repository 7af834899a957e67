// A text summary of collected profile events: the operator types and the nodes that took the
// most time, as shares of the run time.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/profiler/profiler.h"

namespace ort {

/// Time spent in the nodes of one op type, over every profiled run.
struct OpTypeTime {
  std::string op_type;
  int64_t count = 0;  // node executions
  double total_ms = 0;
  double percent = 0;  // of ProfileSummary::base_ms
};

/// Time spent in one node, over every profiled run.
struct NodeTime {
  std::string node_name;
  std::string op_type;
  int64_t count = 0;  // executions (runs, or more inside loops)
  double total_ms = 0;
  double average_ms = 0;
  double percent = 0;  // of ProfileSummary::base_ms
};

/// Time spent in the nodes one provider ran, over every profiled run.
struct ProviderTime {
  std::string provider;
  int64_t count = 0;  // node executions
  double total_ms = 0;
  double percent = 0;  // of ProfileSummary::base_ms
};

/// Aggregates of the Node and "model_run" events of a profile.
struct ProfileSummary {
  int64_t runs = 0;    // "model_run" events
  double run_ms = 0;   // their total duration
  double node_ms = 0;  // total duration of Node events
  double base_ms = 0;  // what percentages are of: run_ms, or node_ms when no run was recorded
  std::vector<OpTypeTime> op_types;     // by total time, longest first
  std::vector<NodeTime> nodes;          // by total time, longest first
  std::vector<ProviderTime> providers;  // by total time, longest first
  /// Copies between host and device (MemcpyFromHost, MemcpyToHost nodes), apart from the
  /// kernels: the breakdown a device user asks for first.
  OpTypeTime to_device;
  OpTypeTime to_host;
};

/// Summarizes `events` (e.g. Profiler::Events()). Nodes of subgraphs count on their own and
/// inside their control-flow node, so shares may add up to more than 100%.
ProfileSummary SummarizeProfile(std::span<const ProfileEvent> events);

/// Two text tables: the `top` op types by total time and the `top` nodes by total time; with
/// more than one provider, also the time per provider and the copies between devices.
std::string FormatProfileSummary(const ProfileSummary& summary, size_t top = 10);

}  // namespace ort
