// `ort perf --baseline`: a regression gate a CI job can trust. The baseline must come from the
// same model (by content hash) and settings; each metric (p50, p90, throughput, session
// creation, peak RSS) has its own allowed regression; latency is judged by a one-sided
// Mann-Whitney U test on the samples (per-round medians with --rounds, else per-run latencies)
// rather than by one pair of p50s.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "apps/ort/perf_report.h"
#include "lib/common/status.h"

namespace ort::cli {

/// FNV-1a (64-bit) of a file's bytes as 16 hex digits: the model's identity in reports.
Result<std::string> FileHash(const std::string& path);

/// What identifies a measurement (model hash, threads, mode, level, providers, concurrency,
/// input shapes, CPU): name -> value text, the same for a report and a baseline.
std::map<std::string, std::string> ReportIdentity(const PerfReport& report);

/// The parts of a report the gate reads.
struct PerfBaseline {
  std::string path;
  std::map<std::string, std::string> identity;
  double p50 = 0, p90 = 0, throughput_per_s = 0, session_init_ms = 0;
  double peak_rss_bytes = 0;
  std::vector<double> latencies_ms;  // per run
  std::vector<double> round_p50_ms;  // per round
};

/// Reads a report written by `ort perf --json`; errors (missing file, bad JSON, missing fields)
/// name the file.
Result<PerfBaseline> ReadBaseline(const std::string& path);

/// "p50=5,p90=10,rss=10" (metrics p50, p90, throughput, session, rss; percent), or one number for
/// p50 alone. Unnamed metrics are not gated.
Result<std::map<std::string, double>> ParseRegressionLimits(const std::string& text);

struct GateRow {
  std::string metric;
  double baseline = 0, current = 0;
  double change_pct = 0;  // positive = worse
  double limit_pct = 0;
  std::string test;  // how it was decided
  bool regressed = false;
};

/// One row per limited metric. Latency rows regress when the change passes the limit and, with
/// at least 3 samples a side, the test finds this run slower than the baseline grown by the limit
/// (p < 0.05).
std::vector<GateRow> EvaluateGate(const PerfBaseline& baseline, const PerfReport& report,
                                  const std::vector<double>& latencies_ms,
                                  const std::vector<double>& round_p50_ms,
                                  const std::map<std::string, double>& limits);

/// The gate as a Markdown table (for a CI job to post).
std::string GateMarkdown(const PerfBaseline& baseline, const PerfReport& report,
                         const std::vector<GateRow>& rows);

}  // namespace ort::cli
