// The body every model fuzzer runs: load a byte string as a model, initialize a session at each
// given optimization level and, when the inputs are small enough, run it once on deterministic
// inputs. Errors are the expected outcome for broken models and are dropped; what a fuzzer looks
// for is a crash, a sanitizer report or a hang inside these calls.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "lib/optimizer/optimization_level.h"

namespace ort::fuzz {

/// How far a model got; the deepest stage over all levels.
enum class CheckStage { kRejected = 0, kLoaded = 1, kInitialized = 2, kRan = 3 };

/// Inputs with more elements than this are not run: the fuzzers look for crashes, not for slow
/// models, and a mutated dim of 2^31 must not make every iteration allocate gigabytes.
inline constexpr int64_t kMaxFeedElements = 1 << 12;

/// Every level, as fuzz_model checks them.
inline constexpr OptimizationLevel kAllLevels[] = {
    OptimizationLevel::kDisable, OptimizationLevel::kBasic, OptimizationLevel::kExtended,
    OptimizationLevel::kAll};

/// Silences the engine's logging (each rejected model would log its error).
void QuietLogging();

/// Loads, initializes and runs `bytes` at each of `levels` (single-threaded, no files written).
CheckStage CheckModelBytes(std::string_view bytes, std::span<const OptimizationLevel> levels);

}  // namespace ort::fuzz
