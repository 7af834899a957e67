// One ONNX backend test case (a directory with model.onnx and test_data_set_*/ folders) run
// through the engine and compared with its expected outputs.
#pragma once

#include <string>

#include "lib/io/compare.h"
#include "lib/session/session_options.h"

namespace ort::conformance {

enum class Outcome { kPass, kFail, kUnsupported };

struct CaseResult {
  Outcome outcome = Outcome::kPass;
  std::string detail;  // why it failed or is unsupported
};

struct CaseOptions {
  Tolerance tolerance;
  OptimizationLevel level = OptimizationLevel::kAll;
  std::string level_name = "all";
  /// When set, the `ort` binary each data set runs through (files in, files out) instead of
  /// the in-memory session.
  std::string cli;
};

/// Runs every test_data_set_* of the case in `directory`.
CaseResult RunTestCase(const std::string& directory, const CaseOptions& options);

/// Runs RunTestCase in a child process so that a crash fails only this case.
CaseResult RunTestCaseIsolated(const std::string& directory, const CaseOptions& options);

}  // namespace ort::conformance
