// The result of `ort perf`: latency statistics, the report written by --json (schema in
// docs/perf_report.schema.json) and reading a baseline report back.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lib/common/status.h"

namespace ort::cli {

/// Latency summary in milliseconds.
struct LatencyStats {
  double min = 0;
  double mean = 0;
  double p50 = 0;
  double p90 = 0;
  double p95 = 0;
  double p99 = 0;
  double max = 0;
};

/// Summarizes `samples_ms` (any order; must not be empty). Percentiles use the nearest-rank
/// method: the smallest sample with at least p% of the samples at or below it, so every
/// percentile is a latency that was actually measured and P99 of few runs is the max.
LatencyStats ComputeLatencyStats(std::vector<double> samples_ms);

/// The nearest-rank percentile `percent` (0 < percent <= 100) of `samples_ms` (any order; must not
/// be empty).
double LatencyPercentile(std::vector<double> samples_ms, double percent);

/// CPU time (user + system) of this process so far, in seconds.
double ProcessCpuSeconds();

/// How the session and the benchmark were set up, as recorded in the report.
struct PerfSettings {
  int intra_op_threads = 0;    // effective count (a request of 0 resolved to one per core)
  int inter_op_threads = 0;    // likewise
  std::string execution_mode;  // "sequential" or "parallel"
  std::string opt_level;       // disable, basic, extended, all
  std::vector<std::string> providers;
  bool allow_spinning = true;
  bool pinned = false;                                                     // --pin
  std::vector<std::pair<std::string, std::vector<int64_t>>> input_shapes;  // in input order
  std::string engine_version;
  std::string cpu;
  std::vector<std::string> isa;
};

/// One shape of a --shape sweep.
struct SweepPoint {
  std::vector<std::pair<std::string, std::vector<int64_t>>> input_shapes;
  LatencyStats latency_ms;
  double throughput_per_s = 0;
  int64_t runs = 0;
};

/// Everything `ort perf` measured.
struct PerfReport {
  std::string model;
  std::string model_hash;  // FileHash of the model file (its external data not included)
  std::string timestamp;   // UTC, ISO 8601
  int concurrency = 1;
  int warmup_runs = 0;
  /// The process-wide set-up (InitializeRuntime) before the session, done once per process as
  /// ONNX Runtime does when it creates its environment: neither session_init_ms nor the session's
  /// resident-memory growth includes it.
  double runtime_init_ms = 0;
  double session_init_ms = 0;
  /// Optimizer passes rolled back during session creation (InferenceSession::optimizer_rollbacks).
  int64_t optimizer_rollbacks = 0;
  double first_run_ms = 0;
  LatencyStats latency_ms;
  std::vector<double> latencies_ms;  // every measured run, in finishing order per round
  int rounds = 1;
  std::vector<double> round_p50_ms;  // the p50 of each round
  /// --percentiles: percent -> latency (nearest rank).
  std::vector<std::pair<double, double>> percentiles_ms;
  /// CPU time (user + system, all threads) of the measured phase over its wall time: cores busy.
  double cpu_cores_busy = 0;
  /// A --shape sweep's points, the first the one the rest of the report describes; empty
  /// without a sweep.
  std::vector<SweepPoint> sweep;
  double throughput_per_s = 0;
  int64_t runs = 0;
  double measured_s = 0;  // wall time of the measured phase
  int64_t peak_rss_bytes = 0;
  // Current (not peak) resident memory just before the session is created and once the runs
  // are done: the kernel counter onnxruntime-node's process.memoryUsage().rss reads, taken at
  // the same points as tools/suite/ort_reference.js, so the growth compares with that engine's.
  int64_t rss_before_session_bytes = 0;
  int64_t rss_after_runs_bytes = 0;
  int64_t arena_bytes_in_use = 0;
  PerfSettings settings;

  /// Negative when the process gave back more than the session and the runs took.
  int64_t RssGrowthBytes() const { return rss_after_runs_bytes - rss_before_session_bytes; }
};

/// "a=[2,3] b=[2,3]": input shapes as the console, the gate and the page show them.
std::string FormatInputShapes(
    const std::vector<std::pair<std::string, std::vector<int64_t>>>& shapes);

/// Writes `report` as JSON to `path`.
Status WriteReportJson(const PerfReport& report, const std::string& path);

/// Peak resident set size of this process (VmHWM in /proc/self/status) in bytes; 0 when the
/// platform does not report it.
int64_t PeakResidentBytes();

/// Current resident set size of this process (VmRSS in /proc/self/status) in bytes; 0 when the
/// platform does not report it.
int64_t ResidentBytes();

/// The current time as "YYYY-MM-DDTHH:MM:SSZ".
std::string UtcTimestamp();

}  // namespace ort::cli
