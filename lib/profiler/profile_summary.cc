#include "lib/profiler/profile_summary.h"

#include <algorithm>
#include <map>

namespace ort {
namespace {

// Long node names would push the columns apart; the tail usually tells nodes apart.
std::string Clip(const std::string& text, size_t width) {
  if (text.size() <= width) return text;
  return "..." + text.substr(text.size() - (width - 3));
}

double Percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

// A node event's "provider" argument; empty when it has none.
std::string ProviderOf(const ProfileEvent& event) {
  const auto it = event.args.find("provider");
  return it != event.args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

ProfileSummary SummarizeProfile(std::span<const ProfileEvent> events) {
  ProfileSummary summary;
  std::map<std::string, OpTypeTime> by_op;
  std::map<std::string, NodeTime> by_node;
  std::map<std::string, ProviderTime> by_provider;
  for (const ProfileEvent& event : events) {
    const double ms = event.dur_us / 1000.0;
    if (event.category == ProfileCategory::kSession) {
      if (event.name == "model_run") {
        ++summary.runs;
        summary.run_ms += ms;
      }
      continue;
    }
    summary.node_ms += ms;
    OpTypeTime& op = by_op[event.op_type];
    op.op_type = event.op_type;
    ++op.count;
    op.total_ms += ms;
    NodeTime& node = by_node[event.node_name];
    node.node_name = event.node_name;
    node.op_type = event.op_type;
    ++node.count;
    node.total_ms += ms;
    const std::string provider = ProviderOf(event);
    if (!provider.empty()) {
      ProviderTime& placed = by_provider[provider];
      placed.provider = provider;
      ++placed.count;
      placed.total_ms += ms;
    }
  }
  summary.base_ms = summary.runs > 0 ? summary.run_ms : summary.node_ms;
  for (auto& [name, op] : by_op) {
    op.percent = Percent(op.total_ms, summary.base_ms);
    summary.op_types.push_back(std::move(op));
  }
  for (auto& [name, node] : by_node) {
    node.average_ms = node.total_ms / static_cast<double>(node.count);
    node.percent = Percent(node.total_ms, summary.base_ms);
    summary.nodes.push_back(std::move(node));
  }
  for (auto& [name, placed] : by_provider) {
    placed.percent = Percent(placed.total_ms, summary.base_ms);
    summary.providers.push_back(std::move(placed));
  }
  for (const OpTypeTime& op : summary.op_types) {
    if (op.op_type == "MemcpyFromHost") summary.to_device = op;
    if (op.op_type == "MemcpyToHost") summary.to_host = op;
  }
  std::stable_sort(summary.providers.begin(), summary.providers.end(),
                   [](const auto& a, const auto& b) { return a.total_ms > b.total_ms; });
  std::stable_sort(summary.op_types.begin(), summary.op_types.end(),
                   [](const auto& a, const auto& b) { return a.total_ms > b.total_ms; });
  std::stable_sort(summary.nodes.begin(), summary.nodes.end(),
                   [](const auto& a, const auto& b) { return a.total_ms > b.total_ms; });
  return summary;
}

std::string FormatProfileSummary(const ProfileSummary& summary, size_t top) {
  std::string out;
  if (summary.runs > 0) {
    out += fmt::format(
        "profile: {} run(s), {:.3f} ms in runs ({:.3f} ms per run), {:.3f} ms in "
        "nodes\n",
        summary.runs, summary.run_ms, summary.run_ms / static_cast<double>(summary.runs),
        summary.node_ms);
  } else {
    out += fmt::format("profile: no run recorded, {:.3f} ms in nodes\n", summary.node_ms);
  }
  if (summary.op_types.empty()) return out + "  (no node events)\n";

  const size_t op_rows = std::min(top, summary.op_types.size());
  out += fmt::format("top {} operator types by total time:\n", op_rows);
  out += fmt::format("  {:<24} {:>7} {:>11} {:>7}\n", "op type", "count", "total ms", "% run");
  for (size_t i = 0; i < op_rows; ++i) {
    const OpTypeTime& op = summary.op_types[i];
    out += fmt::format("  {:<24} {:>7} {:>11.3f} {:>7.1f}\n", Clip(op.op_type, 24), op.count,
                       op.total_ms, op.percent);
  }

  if (summary.providers.size() > 1) {
    out += "time per provider (copy nodes included in their device's):\n";
    for (const ProviderTime& placed : summary.providers) {
      out += fmt::format("  {:<24} {:>7} {:>11.3f} {:>7.1f}\n", placed.provider, placed.count,
                         placed.total_ms, placed.percent);
    }
    out += "copies between host and device:\n";
    for (const auto* copy : {&summary.to_device, &summary.to_host}) {
      out += fmt::format("  {:<24} {:>7} {:>11.3f} {:>7.1f}\n",
                         copy == &summary.to_device ? "host to device" : "device to host",
                         copy->count, copy->total_ms, copy->percent);
    }
  }

  const size_t node_rows = std::min(top, summary.nodes.size());
  out += fmt::format("top {} nodes by total time:\n", node_rows);
  out += fmt::format("  {:<32} {:<18} {:>7} {:>10} {:>7}\n", "node", "op type", "count", "avg ms",
                     "% run");
  for (size_t i = 0; i < node_rows; ++i) {
    const NodeTime& node = summary.nodes[i];
    out += fmt::format("  {:<32} {:<18} {:>7} {:>10.4f} {:>7.1f}\n", Clip(node.node_name, 32),
                       Clip(node.op_type, 18), node.count, node.average_ms, node.percent);
  }
  return out;
}

}  // namespace ort
