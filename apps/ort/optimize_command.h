// `ort optimize`: optimize a model offline and save it, with large initializers in an external
// data file, so sessions on it start faster; prints (and with --report writes) what changed.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace ort::cli {

/// Adds the `optimize` subcommand to `app`; returns the handler to call after parsing. The
/// handler returns 0 on success and 2 on usage or model errors (one line on stderr).
std::function<int()> AddOptimizeCommand(CLI::App& app);

}  // namespace ort::cli
