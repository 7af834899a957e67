// Graph optimization levels, as in ONNX Runtime. They belong to the optimizer, which session
// options and saved optimization records both name, so that lib/session depends on
// lib/optimizer and never the other way round.
#pragma once

#include <string_view>

#include "lib/common/status.h"

namespace ort {

enum class OptimizationLevel { kDisable = 0, kBasic = 1, kExtended = 2, kAll = 99 };

/// Accepts the names ("disable", "basic", "extended", "all") and ONNX Runtime's numbers.
Result<OptimizationLevel> ParseOptimizationLevel(std::string_view text);
std::string_view OptimizationLevelName(OptimizationLevel level);

}  // namespace ort
