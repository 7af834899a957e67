// `ort perf`: benchmark a model: session creation time, first-run latency, latency percentiles
// and throughput over repeated (optionally concurrent) runs, peak memory; optionally a JSON
// report and a regression check against a baseline report.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace ort::cli {

/// Adds the `perf` subcommand to `app`; returns the handler to call after parsing. The handler
/// returns 0 on success, 1 when --baseline shows a regression over --max-regression, 2 on
/// usage or model errors (one line on stderr).
std::function<int()> AddPerfCommand(CLI::App& app);

}  // namespace ort::cli
