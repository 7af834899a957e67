// What an offline optimization (`ort optimize`) applied to a model, kept in the model's
// metadata_props so that a session on the saved model skips the levels already applied.
// Other engines ignore these entries, so the saved model still loads anywhere.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/model.h"
#include "lib/optimizer/optimization_level.h"

namespace ort {

/// metadata_props keys: the level name ("basic", "extended", "all"), the provider types the
/// passes served (comma separated, priority order) and the disabled passes (comma separated).
inline constexpr char kOptimizationLevelKey[] = "ort.optimization_level";
inline constexpr char kOptimizationProvidersKey[] = "ort.optimization_providers";
inline constexpr char kOptimizationDisabledPassesKey[] = "ort.optimization_disabled_passes";
/// The channel block (the CPU's vector width in floats) that com.microsoft.nchwc nodes and their
/// reordered weights were laid out for.
inline constexpr char kNchwcBlockSizeKey[] = "ort.nchwc_block_size";

struct OptimizationRecord {
  /// kDisable: the model carries no record.
  OptimizationLevel level = OptimizationLevel::kDisable;
  std::vector<std::string> providers;
  std::set<std::string> disabled_passes;
};

/// Reads the record from `model`'s metadata; errors when the level entry is not a level name.
Result<OptimizationRecord> ReadOptimizationRecord(const Model& model);

/// Writes `record` (level above kDisable) into `model`'s metadata, replacing an earlier one.
void WriteOptimizationRecord(const OptimizationRecord& record, Model& model);

/// Which levels a session may skip on a model carrying `record`.
struct ResumePoint {
  /// Levels up to this one need not run again (OptimizerOptions::applied_level).
  OptimizationLevel applied_level = OptimizationLevel::kDisable;
  /// Why levels the record covers run again; empty when none do.
  std::string reason;
};

/// A session with `providers` and `disabled` passes skips every level the record covers when
/// the providers are the recorded ones (in any order) and it disables no fewer passes. Other
/// providers may be served by passes of the recorded level and above, so those run again; a
/// pass the record disabled but the session wants may belong to any level, so all run again.
ResumePoint FindResumePoint(const OptimizationRecord& record,
                            const std::vector<std::string>& providers,
                            const std::set<std::string>& disabled);

/// The record after a session ran up to `level` from `resume` with `providers` and `disabled`.
OptimizationRecord UpdatedRecord(const OptimizationRecord& record, const ResumePoint& resume,
                                 OptimizationLevel level, const std::vector<std::string>& providers,
                                 const std::set<std::string>& disabled);

/// A model with com.microsoft.nchwc nodes only computes correctly with the block it was laid out
/// for: errors when its recorded block differs from `block` (a level-all model optimized on a CPU
/// of another vector width); warns when it records none (a model optimized by onnxruntime, which
/// picks the same block for the same CPU).
Status CheckNchwcBlockSize(const Model& model, int block);

/// Records `block` when the model holds com.microsoft.nchwc nodes.
void RecordNchwcBlockSize(Model& model, int block);

}  // namespace ort
