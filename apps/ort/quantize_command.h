// `ort quantize`: quantize a float model to 8 bits (static QDQ with calibration, or dynamic),
// save it, and report how far its outputs move from the float model's.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace ort::cli {

/// Adds the `quantize` subcommand to `app`; returns the handler to call after parsing. The
/// handler returns 0 on success and 2 on usage or model errors (one line on stderr).
std::function<int()> AddQuantizeCommand(CLI::App& app);

}  // namespace ort::cli
