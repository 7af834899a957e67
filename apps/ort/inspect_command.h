// `ort inspect`: what a model is before running it: format and opsets, inputs and outputs with
// their symbolic dimensions, weights, op types per domain, the FLOPs at given sizes, subgraphs,
// metadata (the record `ort optimize` writes included), and with -e which nodes each provider
// would take.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace ort::cli {

/// Adds the `inspect` subcommand to `app`; returns the handler to call after parsing. The
/// handler returns 0 on success and 2 on usage or model errors (one line on stderr).
std::function<int()> AddInspectCommand(CLI::App& app);

}  // namespace ort::cli
