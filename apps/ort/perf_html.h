// `ort perf --html`: one self-contained page (inline SVG and CSS, no script, nothing fetched) to
// look at: the settings, the latency histogram and the latencies run by run, and, from a
// profile (-p), the time per operator type and per node and the threads' timelines of the last
// profiled run.
#pragma once

#include <span>
#include <string>

#include "apps/ort/perf_report.h"
#include "lib/profiler/profile_summary.h"

namespace ort::cli {

/// The page; `summary` and `events` are null and empty without a profile.
std::string PerfHtml(const PerfReport& report, const ProfileSummary* summary,
                     std::span<const ProfileEvent> events);

}  // namespace ort::cli
