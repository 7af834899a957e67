// Options shared by the subcommands that create a session (run, perf, optimize), and creating
// the session from them.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/session/inference_session.h"

namespace ort::cli {

struct SessionArgs {
  std::string model;
  int intra_op_threads = 0;
  int inter_op_threads = 0;
  std::string providers = "cpu";
  std::string opt_level = "all";
  std::string log_level = "warning";
  bool parallel = false;
  bool no_spinning = false;            // idle intra-op workers sleep at once
  std::vector<std::string> free_dims;  // NAME=N
  std::vector<std::string> disabled_passes;
  bool strict_optimizer = false;  // a pass that breaks the graph fails instead of rolling back
  bool no_arena = false;
  bool no_mem_pattern = false;
  std::string arena_extend_strategy = "next-power-of-two";
  std::string precision = "fp32";  // matrix units of the CUDA provider
  // Device providers are created without their device (ort optimize: no kernel runs).
  bool without_device = false;
  // Bound on one tensor's bytes ("1000", "16G", "512MiB"); empty: the session's default.
  std::string max_tensor_bytes;
  // Non-empty: profile the session; EndProfiling writes the trace to this path.
  std::string profile_file;
  bool force = false;        // allow thread counts above kMaxThreadsPerCore x the cores
  bool pin_threads = false;  // SessionOptions::pin_threads (ort perf --pin)
};

/// Thread counts above this many per core are almost always a typo (-x 100000) and can exhaust
/// the process's threads; --force allows them.
constexpr int kMaxThreadsPerCore = 4;

/// Refuses `count` (named by `option`) above kMaxThreadsPerCore x the cores unless `force`.
Status CheckThreadCount(int count, std::string_view option, bool force);

/// Adds the options that decide how the model is rewritten (model, providers, free
/// dimensions, disabled passes, strict optimizer, log level) to `command`; the optimization
/// level is left to it.
void AddModelOptions(CLI::App& command, SessionArgs& args);

/// Adds the shared options (AddModelOptions, the level and the execution settings) to `command`.
void AddSessionOptions(CLI::App& command, SessionArgs& args);

/// Rewrites a loaded model before the session takes it (ort run --dump-intermediates).
using ModelEdit = std::function<Status(Model& model)>;

/// Builds a session from `args` and loads the model, without initializing it; `edit`, when
/// given, rewrites the model first.
Result<std::unique_ptr<InferenceSession>> LoadSession(const SessionArgs& args,
                                                      const ModelEdit& edit = {});

/// Builds, loads and initializes a session from `args`.
Result<std::unique_ptr<InferenceSession>> CreateSession(const SessionArgs& args,
                                                        const ModelEdit& edit = {});

/// Parses "NAME=VALUE" into its two parts; errors name `option`.
Result<std::pair<std::string, std::string>> SplitAssignment(const std::string& text,
                                                            std::string_view option);

/// Parses a positive byte count with an optional binary suffix: "1000", "64K", "16G", "2TiB".
Result<size_t> ParseByteSize(const std::string& text, std::string_view option);

/// Parses "1x3x224x224" (also "1,3,224,224").
Result<std::vector<int64_t>> ParseDims(const std::string& text);

}  // namespace ort::cli
