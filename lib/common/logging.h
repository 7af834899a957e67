// Engine-wide logging through spdlog. One named logger ("ort") writing to stderr; severity is
// process-wide and set from SessionOptions or the CLI's --log-level.
#pragma once

#include <spdlog/spdlog.h>

#include <string_view>

#include "lib/common/status.h"

namespace ort {

enum class LogSeverity { kVerbose = 0, kInfo = 1, kWarning = 2, kError = 3, kFatal = 4 };

/// Parses "verbose", "info", "warning", "error", "fatal" (also 0..4).
Result<LogSeverity> ParseLogSeverity(std::string_view text);

/// Sets the minimum severity printed by the engine's logger.
void SetLogSeverity(LogSeverity severity);

/// The engine's logger; created on first use.
spdlog::logger& Logger();

}  // namespace ort

#define ORT_LOG_VERBOSE(...) ::ort::Logger().debug(__VA_ARGS__)
#define ORT_LOG_INFO(...) ::ort::Logger().info(__VA_ARGS__)
#define ORT_LOG_WARNING(...) ::ort::Logger().warn(__VA_ARGS__)
#define ORT_LOG_ERROR(...) ::ort::Logger().error(__VA_ARGS__)
#define ORT_LOG_FATAL(...) ::ort::Logger().critical(__VA_ARGS__)
