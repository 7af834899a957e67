#include "lib/session/session_options.h"

namespace ort {

Result<ExecutionMode> ParseExecutionMode(std::string_view text) {
  if (text == "sequential") return ExecutionMode::kSequential;
  if (text == "parallel") return ExecutionMode::kParallel;
  return ORT_ERROR(kInvalidArgument,
                   "unknown execution mode '{}' (expected sequential or parallel)", text);
}

}  // namespace ort
