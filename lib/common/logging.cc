#include "lib/common/logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <memory>
#include <string>

namespace ort {

Result<LogSeverity> ParseLogSeverity(std::string_view text) {
  if (text == "verbose" || text == "0") return LogSeverity::kVerbose;
  if (text == "info" || text == "1") return LogSeverity::kInfo;
  if (text == "warning" || text == "2") return LogSeverity::kWarning;
  if (text == "error" || text == "3") return LogSeverity::kError;
  if (text == "fatal" || text == "4") return LogSeverity::kFatal;
  return ORT_ERROR(kInvalidArgument,
                   "unknown log level '{}' (expected verbose, info, warning, error or fatal)",
                   text);
}

spdlog::logger& Logger() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto created = spdlog::stderr_color_mt("ort");
    created->set_pattern("%^[%L %H:%M:%S.%e ort]%$ %v");
    created->set_level(spdlog::level::warn);
    return created;
  }();
  return *logger;
}

void SetLogSeverity(LogSeverity severity) {
  static constexpr spdlog::level::level_enum kLevels[] = {spdlog::level::debug, spdlog::level::info,
                                                          spdlog::level::warn, spdlog::level::err,
                                                          spdlog::level::critical};
  Logger().set_level(kLevels[static_cast<int>(severity)]);
}

}  // namespace ort
