#include "lib/optimizer/optimization_level.h"

namespace ort {

Result<OptimizationLevel> ParseOptimizationLevel(std::string_view text) {
  if (text == "disable" || text == "0") return OptimizationLevel::kDisable;
  if (text == "basic" || text == "1") return OptimizationLevel::kBasic;
  if (text == "extended" || text == "2") return OptimizationLevel::kExtended;
  if (text == "all" || text == "99" || text == "3") return OptimizationLevel::kAll;
  return ORT_ERROR(kInvalidArgument,
                   "unknown optimization level '{}' (expected disable, basic, extended or all)",
                   text);
}

std::string_view OptimizationLevelName(OptimizationLevel level) {
  switch (level) {
    case OptimizationLevel::kDisable:
      return "disable";
    case OptimizationLevel::kBasic:
      return "basic";
    case OptimizationLevel::kExtended:
      return "extended";
    case OptimizationLevel::kAll:
      return "all";
  }
  return "unknown";
}

}  // namespace ort
