// `ort compare`: one model (or two) run two ways on the same inputs (providers, level,
// precision, threads, or another file such as `ort optimize` or `ort quantize` output), with
// error statistics per output; --bisect names the first node whose output diverges.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace ort::cli {

/// Adds the `compare` subcommand to `app`; returns the handler to call after parsing. The
/// handler returns 0 when the outputs match, 1 when they do not, and 2 on usage or model errors
/// (one line on stderr).
std::function<int()> AddCompareCommand(CLI::App& app);

}  // namespace ort::cli
