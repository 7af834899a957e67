#include "lib/optimizer/optimization_record.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lib/common/logging.h"

namespace ort {
namespace {

bool UsesDomain(const Graph& graph, std::string_view domain) {
  for (const Node* node : graph.Nodes()) {
    if (node->domain() == domain) return true;
    for (const Graph* subgraph : node->Subgraphs()) {
      if (UsesDomain(*subgraph, domain)) return true;
    }
  }
  return false;
}

constexpr std::string_view kNchwcDomain = "com.microsoft.nchwc";

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  size_t position = 0;
  while (position < text.size()) {
    size_t end = text.find(',', position);
    if (end == std::string::npos) end = text.size();
    if (end > position) parts.push_back(text.substr(position, end - position));
    position = end + 1;
  }
  return parts;
}

OptimizationLevel LevelBelow(OptimizationLevel level) {
  switch (level) {
    case OptimizationLevel::kAll:
      return OptimizationLevel::kExtended;
    case OptimizationLevel::kExtended:
      return OptimizationLevel::kBasic;
    default:
      return OptimizationLevel::kDisable;
  }
}

int Rank(OptimizationLevel level) { return static_cast<int>(level); }

std::vector<std::string> Sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

Result<OptimizationRecord> ReadOptimizationRecord(const Model& model) {
  OptimizationRecord record;
  const std::string level = model.Metadata(kOptimizationLevelKey);
  if (level.empty()) return record;
  auto parsed = ParseOptimizationLevel(level);
  if (!parsed.ok()) {
    return ORT_ERROR(kInvalidModel, "metadata '{}': {}", kOptimizationLevelKey,
                     parsed.status().message());
  }
  record.level = *parsed;
  record.providers = SplitCommas(model.Metadata(kOptimizationProvidersKey));
  for (auto& name : SplitCommas(model.Metadata(kOptimizationDisabledPassesKey))) {
    record.disabled_passes.insert(std::move(name));
  }
  return record;
}

void WriteOptimizationRecord(const OptimizationRecord& record, Model& model) {
  model.SetMetadata(kOptimizationLevelKey, std::string(OptimizationLevelName(record.level)));
  model.SetMetadata(kOptimizationProvidersKey, fmt::format("{}", fmt::join(record.providers, ",")));
  model.SetMetadata(kOptimizationDisabledPassesKey,
                    fmt::format("{}", fmt::join(record.disabled_passes, ",")));
}

ResumePoint FindResumePoint(const OptimizationRecord& record,
                            const std::vector<std::string>& providers,
                            const std::set<std::string>& disabled) {
  ResumePoint resume{record.level, {}};
  if (record.level == OptimizationLevel::kDisable) return resume;
  if (Sorted(record.providers) != Sorted(providers)) {
    resume.applied_level = LevelBelow(record.level);
    resume.reason = fmt::format(
        "the model was optimized up to level '{}' for providers [{}], this session uses [{}]; "
        "running level '{}' and above again",
        OptimizationLevelName(record.level), fmt::join(record.providers, ","),
        fmt::join(providers, ","), OptimizationLevelName(record.level));
  }
  std::vector<std::string> skipped;
  std::set_difference(record.disabled_passes.begin(), record.disabled_passes.end(),
                      disabled.begin(), disabled.end(), std::back_inserter(skipped));
  if (!skipped.empty()) {
    resume.applied_level = OptimizationLevel::kDisable;
    resume.reason = fmt::format(
        "the model was optimized with [{}] disabled, which this session runs; running every "
        "level again",
        fmt::join(skipped, ","));
  }
  return resume;
}

OptimizationRecord UpdatedRecord(const OptimizationRecord& record, const ResumePoint& resume,
                                 OptimizationLevel level, const std::vector<std::string>& providers,
                                 const std::set<std::string>& disabled) {
  OptimizationRecord updated;
  updated.level = Rank(level) > Rank(record.level) ? level : record.level;
  updated.providers = providers;
  updated.disabled_passes = disabled;
  // Passes the record disabled stay unapplied at the levels this session skipped.
  if (resume.applied_level != OptimizationLevel::kDisable) {
    updated.disabled_passes.insert(record.disabled_passes.begin(), record.disabled_passes.end());
  }
  return updated;
}

Status CheckNchwcBlockSize(const Model& model, int block) {
  if (!UsesDomain(model.graph(), kNchwcDomain)) return Status::OK();
  const std::string recorded = model.Metadata(kNchwcBlockSizeKey);
  if (recorded.empty()) {
    ORT_LOG_WARNING(
        "{}: holds com.microsoft.nchwc nodes but records no block size; assuming "
        "this CPU's block of {} channels",
        model.path, block);
    return Status::OK();
  }
  if (recorded != std::to_string(block)) {
    return ORT_ERROR(kInvalidModel,
                     "{}: its com.microsoft.nchwc nodes were laid out for blocks of {} channels, "
                     "this CPU uses {}; optimize the model again on this kind of CPU, or ship a "
                     "model optimized at level 'extended'",
                     model.path, recorded, block);
  }
  return Status::OK();
}

void RecordNchwcBlockSize(Model& model, int block) {
  if (UsesDomain(model.graph(), kNchwcDomain)) {
    model.SetMetadata(kNchwcBlockSizeKey, std::to_string(block));
  }
}

}  // namespace ort
