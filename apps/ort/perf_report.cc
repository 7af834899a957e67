#include "apps/ort/perf_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <string_view>
#include "lib/common/file_writer.h"

namespace ort::cli {
namespace {

// ordered_json keeps the keys in the order written, so reports read top-down like the console.
using Json = nlohmann::ordered_json;

// Nearest rank: index ceil(p/100 * n) - 1 of the sorted samples.
double NearestRank(const std::vector<double>& sorted, double percent) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank = static_cast<size_t>(std::ceil(percent / 100.0 * n));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

// A memory field of /proc/self/status ("VmRSS:") in bytes; 0 when absent.
int64_t StatusBytes(std::string_view field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (!line.starts_with(field)) continue;
    std::istringstream values(line.substr(field.size()));
    int64_t kilobytes = 0;
    values >> kilobytes;  // the kernel always reports these fields in kB
    return kilobytes * 1024;
  }
  return 0;
}

}  // namespace

LatencyStats ComputeLatencyStats(std::vector<double> samples_ms) {
  LatencyStats stats;
  if (samples_ms.empty()) return stats;
  std::sort(samples_ms.begin(), samples_ms.end());
  stats.min = samples_ms.front();
  stats.max = samples_ms.back();
  stats.mean = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0) /
               static_cast<double>(samples_ms.size());
  stats.p50 = NearestRank(samples_ms, 50);
  stats.p90 = NearestRank(samples_ms, 90);
  stats.p95 = NearestRank(samples_ms, 95);
  stats.p99 = NearestRank(samples_ms, 99);
  return stats;
}

double LatencyPercentile(std::vector<double> samples_ms, double percent) {
  std::sort(samples_ms.begin(), samples_ms.end());
  return NearestRank(samples_ms, percent);
}

double ProcessCpuSeconds() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  const auto seconds = [](const timeval& time) {
    return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::string FormatInputShapes(
    const std::vector<std::pair<std::string, std::vector<int64_t>>>& shapes) {
  std::string text;
  for (const auto& [name, dims] : shapes) {
    text += fmt::format("{}{}=[{}]", text.empty() ? "" : " ", name, fmt::join(dims, ","));
  }
  return text;
}

Status WriteReportJson(const PerfReport& report, const std::string& path) {
  const PerfSettings& s = report.settings;
  Json percentiles = Json::object();
  for (const auto& [percent, value] : report.percentiles_ms) {
    percentiles[fmt::format("{}", percent)] = value;
  }
  Json shapes = Json::object();
  for (const auto& [name, dims] : s.input_shapes) shapes[name] = dims;
  Json sweep = Json::array();
  for (const SweepPoint& point : report.sweep) {
    Json point_shapes = Json::object();
    for (const auto& [name, dims] : point.input_shapes) point_shapes[name] = dims;
    sweep.push_back({{"input_shapes", point_shapes},
                     {"latency_ms",
                      {{"mean", point.latency_ms.mean},
                       {"p50", point.latency_ms.p50},
                       {"p90", point.latency_ms.p90},
                       {"p99", point.latency_ms.p99}}},
                     {"throughput_per_s", point.throughput_per_s},
                     {"runs", point.runs}});
  }
  const LatencyStats& l = report.latency_ms;
  Json json = {
      {"model", report.model},
      {"model_hash", report.model_hash},
      {"timestamp", report.timestamp},
      {"concurrency", report.concurrency},
      {"warmup_runs", report.warmup_runs},
      {"runs", report.runs},
      {"runtime_init_ms", report.runtime_init_ms},
      {"session_init_ms", report.session_init_ms},
      {"optimizer_rollbacks", report.optimizer_rollbacks},
      {"first_run_ms", report.first_run_ms},
      {"latency_ms",
       {{"min", l.min},
        {"mean", l.mean},
        {"p50", l.p50},
        {"p90", l.p90},
        {"p95", l.p95},
        {"p99", l.p99},
        {"max", l.max}}},
      {"latencies_ms", report.latencies_ms},
      {"rounds", report.rounds},
      {"round_p50_ms", report.round_p50_ms},
      {"percentiles_ms", percentiles},
      {"cpu_cores_busy", report.cpu_cores_busy},
      {"sweep", sweep},
      {"throughput_per_s", report.throughput_per_s},
      {"measured_s", report.measured_s},
      {"peak_rss_bytes", report.peak_rss_bytes},
      {"rss_before_session_bytes", report.rss_before_session_bytes},
      {"rss_after_runs_bytes", report.rss_after_runs_bytes},
      {"rss_growth_bytes", report.RssGrowthBytes()},
      {"arena_bytes_in_use", report.arena_bytes_in_use},
      {"settings",
       {{"intra_op_threads", s.intra_op_threads},
        {"inter_op_threads", s.inter_op_threads},
        {"execution_mode", s.execution_mode},
        {"opt_level", s.opt_level},
        {"providers", s.providers},
        {"allow_spinning", s.allow_spinning},
        {"pinned", s.pinned},
        {"input_shapes", shapes},
        {"engine_version", s.engine_version},
        {"cpu", s.cpu},
        {"isa", s.isa}}},
  };
  return WriteStringToFile(path, json.dump(2) + "\n").WithContext("--json");
}

int64_t PeakResidentBytes() { return StatusBytes("VmHWM:"); }

int64_t ResidentBytes() { return StatusBytes("VmRSS:"); }

std::string UtcTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace ort::cli
