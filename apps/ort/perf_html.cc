#include "apps/ort/perf_html.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <vector>

namespace ort::cli {
namespace {

constexpr double kWidth = 760, kHeight = 220, kLeft = 56, kBottom = 28, kTop = 12;
constexpr const char* kStyle = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1000px; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
table { border-collapse: collapse; } td, th { padding: 2px 10px; text-align: left; }
th { background: #eee; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { border: 1px solid #ccc; border-radius: 6px; padding: 8px 12px; min-width: 120px; }
.card b { display: block; font-size: 18px; }
svg text { font: 11px sans-serif; fill: #444; }
.note { color: #666; }
)";

// Text for HTML element content and attribute values: a model's names are not to be trusted.
std::string Escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Svg(const std::string& label, const std::string& body, double height = kHeight) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"{}\" width=\"{}\" "
      "height=\"{}\" viewBox=\"0 0 {} {}\">{}</svg>\n",
      Escape(label), kWidth, height, kWidth, height, body);
}

// Axis lines and min/max labels of a chart whose values run from `low` to `high` upwards.
std::string YAxis(double low, double high, const std::string& unit, double height = kHeight) {
  return fmt::format(
      "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#888\"/>"
      "<line x1=\"{0}\" y1=\"{2}\" x2=\"{3}\" y2=\"{2}\" stroke=\"#888\"/>"
      "<text x=\"4\" y=\"{4}\">{5:.3g}{6}</text><text x=\"4\" y=\"{2}\">{7:.3g}{6}</text>",
      kLeft, kTop, height - kBottom, kWidth - 8, kTop + 10, high, unit, low);
}

std::string Histogram(const std::vector<double>& samples) {
  if (samples.empty()) return "";
  const auto [low_it, high_it] = std::minmax_element(samples.begin(), samples.end());
  const double low = *low_it, high = std::max(*high_it, low + 1e-9);
  constexpr int kBins = 40;
  std::vector<int> counts(kBins, 0);
  for (const double value : samples) {
    ++counts[std::min(kBins - 1, static_cast<int>((value - low) / (high - low) * kBins))];
  }
  const int peak = *std::max_element(counts.begin(), counts.end());
  const double plot = kHeight - kBottom - kTop, width = (kWidth - kLeft - 8) / kBins;
  std::string body = YAxis(0, peak, " runs");
  for (int bin = 0; bin < kBins; ++bin) {
    const double h = plot * counts[bin] / std::max(1, peak);
    body += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#3a6fc4\">"
        "<title>{:.3f}-{:.3f} ms: {} runs</title></rect>",
        kLeft + bin * width, kHeight - kBottom - h, width - 1, h, low + (high - low) * bin / kBins,
        low + (high - low) * (bin + 1) / kBins, counts[bin]);
  }
  body += fmt::format("<text x=\"{}\" y=\"{}\">{:.3f} ms</text>", kLeft, kHeight - 8, low);
  body += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:.3f} ms</text>", kWidth - 8,
                      kHeight - 8, high);
  return Svg("latency histogram", body);
}

std::string OverTime(const std::vector<double>& samples, const LatencyStats& stats) {
  if (samples.empty()) return "";
  const double high = std::max(stats.max, 1e-9);
  const double plot = kHeight - kBottom - kTop;
  const auto x = [&](size_t i) {
    return kLeft + (kWidth - kLeft - 8) * static_cast<double>(i) /
                       static_cast<double>(std::max<size_t>(1, samples.size() - 1));
  };
  const auto y = [&](double value) { return kHeight - kBottom - plot * value / high; };
  std::string points;
  for (size_t i = 0; i < samples.size(); ++i) {
    points += fmt::format("{:.1f},{:.1f} ", x(i), y(samples[i]));
  }
  std::string body = YAxis(0, high, " ms");
  body += fmt::format("<polyline fill=\"none\" stroke=\"#3a6fc4\" points=\"{}\"/>", points);
  for (const auto& [name, value, color] :
       {std::tuple{"p50", stats.p50, "#2a9d4b"}, std::tuple{"p90", stats.p90, "#d08a00"},
        std::tuple{"p99", stats.p99, "#c4413a"}}) {
    body += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"{3}\" "
        "stroke-dasharray=\"4 3\"/><text x=\"{2}\" y=\"{4:.1f}\" text-anchor=\"end\" "
        "fill=\"{3}\">{5} {6:.3f} ms</text>",
        kLeft, y(value), kWidth - 8, color, y(value) - 3, name, value);
  }
  body += fmt::format("<text x=\"{}\" y=\"{}\">run 1</text>", kLeft, kHeight - 8);
  body += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">run {}</text>", kWidth - 8,
                      kHeight - 8, samples.size());
  return Svg("latency of each run", body);
}

// Horizontal bars: label, milliseconds, share.
std::string Bars(const std::string& label,
                 const std::vector<std::tuple<std::string, double, double>>& rows) {
  if (rows.empty()) return "";
  constexpr double kRow = 18, kLabel = 300;
  const double height = kRow * static_cast<double>(rows.size()) + 8;
  double longest = 0;
  for (const auto& row : rows) longest = std::max(longest, std::get<1>(row));
  std::string body;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& [name, ms, percent] = rows[i];
    const double width = (kWidth - kLabel - 120) * ms / std::max(longest, 1e-12);
    const double top = kRow * static_cast<double>(i) + 4;
    body += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>"
        "<rect x=\"{}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{}\" fill=\"#3a6fc4\"><title>{}: "
        "{:.3f} ms ({:.1f}%)</title></rect><text x=\"{:.1f}\" y=\"{:.1f}\">{:.3f} ms, "
        "{:.1f}%</text>",
        kLabel - 6, top + 12, Escape(name.size() > 46 ? name.substr(0, 45) + "…" : name), kLabel,
        top, std::max(width, 1.0), kRow - 4, Escape(name), ms, percent, kLabel + width + 4,
        top + 12, ms, percent);
  }
  return Svg(label, body, height);
}

// One lane per thread: the Node events inside the last model_run, as bars along its time.
std::string Timelines(std::span<const ProfileEvent> events) {
  const ProfileEvent* run = nullptr;
  for (const ProfileEvent& event : events) {
    if (event.category == ProfileCategory::kSession && event.name == "model_run") run = &event;
  }
  if (run == nullptr || run->dur_us <= 0) return "";
  std::map<int64_t, std::vector<const ProfileEvent*>> lanes;
  for (const ProfileEvent& event : events) {
    if (event.category != ProfileCategory::kNode) continue;
    if (event.ts_us < run->ts_us || event.ts_us > run->ts_us + run->dur_us) continue;
    lanes[event.tid].push_back(&event);
  }
  if (lanes.empty()) return "";
  constexpr double kLane = 26, kLabel = 110;
  const double height = kLane * static_cast<double>(lanes.size()) + kBottom;
  const double scale = (kWidth - kLabel - 8) / run->dur_us;
  static constexpr const char* kColors[] = {"#3a6fc4", "#2a9d4b", "#d08a00",
                                            "#c4413a", "#7a4fc4", "#1a9aa0"};
  std::map<std::string, size_t> color_of;
  std::string body;
  double top = 4;
  for (const auto& [tid, lane] : lanes) {
    body += fmt::format("<text x=\"4\" y=\"{:.1f}\">thread {}</text>", top + 15, tid);
    for (const ProfileEvent* event : lane) {
      const size_t color = color_of.emplace(event->op_type, color_of.size()).first->second;
      body += fmt::format(
          "<rect x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{}\" fill=\"{}\">"
          "<title>{} ({}): {:.1f} us</title></rect>",
          kLabel + (event->ts_us - run->ts_us) * scale, top, std::max(event->dur_us * scale, 0.5),
          kLane - 6, kColors[color % std::size(kColors)], Escape(event->node_name),
          Escape(event->op_type), event->dur_us);
    }
    top += kLane;
  }
  body += fmt::format("<text x=\"{}\" y=\"{:.1f}\">0</text>", kLabel, height - 8);
  body += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.3f} ms</text>",
                      kWidth - 8, height - 8, run->dur_us / 1000.0);
  return Svg("threads' timelines of the last run", body, height);
}

}  // namespace

std::string PerfHtml(const PerfReport& report, const ProfileSummary* summary,
                     std::span<const ProfileEvent> events) {
  const PerfSettings& s = report.settings;
  const LatencyStats& l = report.latency_ms;
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ort perf: {}</title>"
      "<style>{}</style></head><body>\n<h1>ort perf: {}</h1>\n",
      Escape(report.model), kStyle, Escape(report.model));
  html += "<div class=\"cards\">";
  for (const auto& [name, value] :
       {std::pair{"p50", fmt::format("{:.3f} ms", l.p50)},
        std::pair{"p90", fmt::format("{:.3f} ms", l.p90)},
        std::pair{"p99", fmt::format("{:.3f} ms", l.p99)},
        std::pair{"throughput", fmt::format("{:.1f} /s", report.throughput_per_s)},
        std::pair{"session creation", fmt::format("{:.1f} ms", report.session_init_ms)},
        std::pair{"peak RSS", fmt::format("{:.1f} MiB", report.peak_rss_bytes / 1048576.0)},
        std::pair{"cores busy", fmt::format("{:.2f}", report.cpu_cores_busy)}}) {
    html += fmt::format("<div class=\"card\">{}<b>{}</b></div>", name, value);
  }
  html += "</div>\n<h2>Settings</h2>\n<table>";
  for (const auto& [key, value] :
       {std::pair{"providers", fmt::format("{}", fmt::join(s.providers, ", "))},
        std::pair{"threads", fmt::format("{} intra-op, {} inter-op, {}, spinning {}, pinned {}",
                                         s.intra_op_threads, s.inter_op_threads, s.execution_mode,
                                         s.allow_spinning ? "on" : "off", s.pinned ? "yes" : "no")},
        std::pair{"optimization level", s.opt_level},
        std::pair{"inputs", FormatInputShapes(s.input_shapes)},
        std::pair{"runs", fmt::format("{} in {} round(s), {} warm-up, concurrency {}", report.runs,
                                      report.rounds, report.warmup_runs, report.concurrency)},
        std::pair{"cpu", fmt::format("{} [{}]", s.cpu, fmt::join(s.isa, " "))},
        std::pair{"engine", s.engine_version}, std::pair{"measured", report.timestamp}}) {
    html += fmt::format("<tr><th>{}</th><td>{}</td></tr>", key, Escape(value));
  }
  html += "</table>\n<h2>Latency histogram</h2>\n" + Histogram(report.latencies_ms);
  html += "<h2>Latency of each run</h2>\n" + OverTime(report.latencies_ms, l);
  if (summary == nullptr) {
    html +=
        "<h2>Operators</h2><p class=\"note\">Run with -p TRACE.json for the time per operator "
        "type and per node and the threads' timelines.</p>\n";
  } else {
    std::vector<std::tuple<std::string, double, double>> op_rows, node_rows;
    for (const OpTypeTime& op : summary->op_types) {
      if (op_rows.size() < 20) op_rows.emplace_back(op.op_type, op.total_ms, op.percent);
    }
    for (const NodeTime& node : summary->nodes) {
      if (node_rows.size() < 25) {
        node_rows.emplace_back(node.node_name + " (" + node.op_type + ")", node.total_ms,
                               node.percent);
      }
    }
    html += fmt::format("<h2>Time per operator type ({} profiled runs)</h2>\n", summary->runs) +
            Bars("time per operator type", op_rows);
    html += "<h2>Time per node</h2>\n" + Bars("time per node", node_rows);
    html += "<h2>Threads' timelines (last profiled run)</h2>\n" + Timelines(events);
  }
  html += "</body></html>\n";
  return html;
}

}  // namespace ort::cli
