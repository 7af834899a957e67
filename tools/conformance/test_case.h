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

/// Runs every test_data_set_* of the case in `directory`.
CaseResult RunTestCase(const std::string& directory, const Tolerance& tolerance,
                       OptimizationLevel level);

/// Runs RunTestCase in a child process so that a crash fails only this case.
CaseResult RunTestCaseIsolated(const std::string& directory, const Tolerance& tolerance,
                               OptimizationLevel level);

}  // namespace ort::conformance
