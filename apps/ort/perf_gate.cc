#include "apps/ort/perf_gate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lib/common/statistics.h"

namespace ort::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr double kSignificance = 0.05;
constexpr size_t kMinimumSamples = 3;

// A number at `path` (keys) of `json`, or an error naming the baseline and the key.
Result<double> Number(const Json& json, std::initializer_list<const char*> path,
                      const std::string& file) {
  const Json* node = &json;
  std::string key;
  for (const char* part : path) {
    if (!key.empty()) key += '.';
    key += part;
    if (!node->is_object() || !node->contains(part)) {
      return ORT_ERROR(kInvalidArgument,
                       "--baseline '{}' has no {} (not an `ort perf --json` "
                       "report?)",
                       file, key);
    }
    node = &(*node)[part];
  }
  if (!node->is_number()) {
    return ORT_ERROR(kInvalidArgument, "--baseline '{}': {} is not a number", file, key);
  }
  return node->get<double>();
}

std::vector<double> Numbers(const Json& json, const char* key) {
  std::vector<double> values;
  if (!json.contains(key) || !json[key].is_array()) return values;
  for (const Json& value : json[key]) {
    if (value.is_number()) values.push_back(value.get<double>());
  }
  return values;
}

}  // namespace

Result<std::string> FileHash(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return ORT_ERROR(kNotFound, "cannot read '{}' to hash it", path);
  uint64_t hash = 0xcbf29ce484222325ULL;
  char buffer[1 << 16];
  while (file.read(buffer, sizeof(buffer)) || file.gcount() > 0) {
    for (std::streamsize i = 0; i < file.gcount(); ++i) {
      hash ^= static_cast<unsigned char>(buffer[i]);
      hash *= 0x100000001b3ULL;
    }
  }
  return fmt::format("{:016x}", hash);
}

std::map<std::string, std::string> ReportIdentity(const PerfReport& report) {
  const PerfSettings& s = report.settings;
  return {{"model hash", report.model_hash},
          {"intra-op threads", std::to_string(s.intra_op_threads)},
          {"inter-op threads", std::to_string(s.inter_op_threads)},
          {"execution mode", s.execution_mode},
          {"opt level", s.opt_level},
          {"providers", fmt::format("{}", fmt::join(s.providers, ","))},
          {"concurrency", std::to_string(report.concurrency)},
          {"input shapes", FormatInputShapes(s.input_shapes)},
          {"cpu", s.cpu}};
}

Result<PerfBaseline> ReadBaseline(const std::string& path) {
  std::ifstream file(path);
  if (!file) return ORT_ERROR(kNotFound, "cannot read --baseline '{}'", path);
  // Parse without exceptions: a bad baseline is a usage error, reported like any other.
  const Json json = Json::parse(file, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    return ORT_ERROR(kInvalidArgument, "--baseline '{}' is not a JSON object", path);
  }
  PerfBaseline baseline;
  baseline.path = path;
  ORT_ASSIGN_OR_RETURN(baseline.p50, Number(json, {"latency_ms", "p50"}, path));
  if (baseline.p50 <= 0) {
    return ORT_ERROR(kInvalidArgument, "--baseline '{}' has no positive latency_ms.p50", path);
  }
  ORT_ASSIGN_OR_RETURN(baseline.p90, Number(json, {"latency_ms", "p90"}, path));
  ORT_ASSIGN_OR_RETURN(baseline.throughput_per_s, Number(json, {"throughput_per_s"}, path));
  ORT_ASSIGN_OR_RETURN(baseline.session_init_ms, Number(json, {"session_init_ms"}, path));
  ORT_ASSIGN_OR_RETURN(baseline.peak_rss_bytes, Number(json, {"peak_rss_bytes"}, path));
  baseline.latencies_ms = Numbers(json, "latencies_ms");
  baseline.round_p50_ms = Numbers(json, "round_p50_ms");
  // The identity as ReportIdentity spells it; what the baseline lacks stays "" and so differs.
  PerfReport as_report;
  as_report.model_hash = json.value("model_hash", "");
  as_report.concurrency = json.value("concurrency", 0);
  if (json.contains("settings") && json["settings"].is_object()) {
    const Json& s = json["settings"];
    PerfSettings& settings = as_report.settings;
    settings.intra_op_threads = s.value("intra_op_threads", 0);
    settings.inter_op_threads = s.value("inter_op_threads", 0);
    settings.execution_mode = s.value("execution_mode", "");
    settings.opt_level = s.value("opt_level", "");
    if (s.contains("providers") && s["providers"].is_array()) {
      for (const Json& provider : s["providers"]) {
        if (provider.is_string()) settings.providers.push_back(provider.get<std::string>());
      }
    }
    if (s.contains("input_shapes") && s["input_shapes"].is_object()) {
      for (const auto& [name, dims] : s["input_shapes"].items()) {
        std::vector<int64_t> values;
        if (dims.is_array()) {
          for (const Json& dim : dims) {
            if (dim.is_number_integer()) values.push_back(dim.get<int64_t>());
          }
        }
        settings.input_shapes.emplace_back(name, std::move(values));
      }
    }
    settings.cpu = s.value("cpu", "");
  }
  baseline.identity = ReportIdentity(as_report);
  return baseline;
}

Result<std::map<std::string, double>> ParseRegressionLimits(const std::string& text) {
  std::map<std::string, double> limits;
  const auto number = [&](const std::string& value) -> Result<double> {
    char* end = nullptr;
    const double parsed = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(parsed) ||
        parsed < 0) {
      return ORT_ERROR(kInvalidArgument,
                       "--max-regression {}: '{}' is not a non-negative percentage", text, value);
    }
    return parsed;
  };
  if (text.find('=') == std::string::npos) {
    ORT_ASSIGN_OR_RETURN(limits["p50"], number(text));
    return limits;
  }
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) continue;
    const size_t equals = item.find('=');
    const std::string metric = item.substr(0, equals);
    if (equals == std::string::npos ||
        (metric != "p50" && metric != "p90" && metric != "throughput" && metric != "session" &&
         metric != "rss")) {
      return ORT_ERROR(kInvalidArgument,
                       "--max-regression {}: expected METRIC=PERCENT with METRIC one of p50, p90, "
                       "throughput, session, rss",
                       text);
    }
    ORT_ASSIGN_OR_RETURN(limits[metric], number(item.substr(equals + 1)));
  }
  return limits;
}

std::vector<GateRow> EvaluateGate(const PerfBaseline& baseline, const PerfReport& report,
                                  const std::vector<double>& latencies_ms,
                                  const std::vector<double>& round_p50_ms,
                                  const std::map<std::string, double>& limits) {
  std::vector<GateRow> rows;
  const auto add = [&](const std::string& metric, double before, double now,
                       bool higher_is_better) {
    const auto limit = limits.find(metric);
    if (limit == limits.end()) return;
    GateRow row;
    row.metric = metric;
    row.baseline = before;
    row.current = now;
    row.limit_pct = limit->second;
    row.change_pct =
        before > 0 ? (higher_is_better ? before - now : now - before) / before * 100.0 : 0.0;
    row.regressed = row.change_pct > row.limit_pct;
    row.test = "change against the limit";
    if (metric == "p50") {
      // The samples: per-round medians where both sides have enough rounds, else per-run
      // latencies; the baseline's grown by the limit, so that "slower than allowed" is tested.
      const bool by_round =
          round_p50_ms.size() >= kMinimumSamples && baseline.round_p50_ms.size() >= kMinimumSamples;
      const std::vector<double>& now_samples = by_round ? round_p50_ms : latencies_ms;
      std::vector<double> allowed = by_round ? baseline.round_p50_ms : baseline.latencies_ms;
      if (now_samples.size() >= kMinimumSamples && allowed.size() >= kMinimumSamples) {
        for (double& value : allowed) value *= 1.0 + row.limit_pct / 100.0;
        const double p = MannWhitneyGreaterP(now_samples, allowed);
        row.regressed = row.regressed && p < kSignificance;
        row.test = fmt::format("Mann-Whitney U, {} vs {} {}: p = {:.3g} (regression if < {})",
                               now_samples.size(), allowed.size(),
                               by_round ? "round medians" : "runs", p, kSignificance);
      } else {
        row.test = "change against the limit (fewer than 3 samples a side for a test)";
      }
    }
    rows.push_back(std::move(row));
  };
  add("p50", baseline.p50, report.latency_ms.p50, false);
  add("p90", baseline.p90, report.latency_ms.p90, false);
  add("throughput", baseline.throughput_per_s, report.throughput_per_s, true);
  add("session", baseline.session_init_ms, report.session_init_ms, false);
  add("rss", baseline.peak_rss_bytes, static_cast<double>(report.peak_rss_bytes), false);
  return rows;
}

std::string GateMarkdown(const PerfBaseline& baseline, const PerfReport& report,
                         const std::vector<GateRow>& rows) {
  const bool regressed =
      std::any_of(rows.begin(), rows.end(), [](const GateRow& row) { return row.regressed; });
  std::string text = fmt::format("### ort perf: {} {}\n\n", report.model,
                                 regressed ? "REGRESSION" : "within limits");
  text += fmt::format("Baseline `{}`; {} runs ({} rounds), {} threads, level {}, {}.\n\n",
                      baseline.path, report.runs, report.rounds, report.settings.intra_op_threads,
                      report.settings.opt_level, report.settings.cpu);
  text += "| metric | baseline | this run | change | limit | verdict | decided by |\n";
  text += "|---|---:|---:|---:|---:|---|---|\n";
  for (const GateRow& row : rows) {
    const bool bytes = row.metric == "rss";
    const auto value = [&](double v) {
      return bytes ? fmt::format("{:.1f} MiB", v / (1024.0 * 1024.0)) : fmt::format("{:.3f}", v);
    };
    text += fmt::format("| {} | {} | {} | {:+.1f}% | {}% | {} | {} |\n", row.metric,
                        value(row.baseline), value(row.current), row.change_pct, row.limit_pct,
                        row.regressed ? "**regression**" : "ok", row.test);
  }
  return text;
}

}  // namespace ort::cli
