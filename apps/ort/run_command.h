// `ort run`: run a model once on inputs from files or random values, print a summary, write
// outputs, and compare against expected outputs.
#pragma once

#include <CLI/CLI.hpp>

namespace ort::cli {

/// Adds the `run` subcommand to `app`; returns the handler to call after parsing.
std::function<int()> AddRunCommand(CLI::App& app);

}  // namespace ort::cli
