#include <catch2/catch.hpp>

#include "lib/ir/model.h"
#include "lib/optimizer/optimization_record.h"

namespace ort {

TEST_CASE("The optimization record round-trips through metadata", "[optimizer][record]") {
  Model model;
  REQUIRE(ReadOptimizationRecord(model).value().level == OptimizationLevel::kDisable);
  WriteOptimizationRecord({OptimizationLevel::kExtended, {"cuda", "cpu"}, {"a_pass", "b_rule"}},
                          model);
  CHECK(model.Metadata(kOptimizationLevelKey) == "extended");
  CHECK(model.Metadata(kOptimizationProvidersKey) == "cuda,cpu");
  CHECK(model.Metadata(kOptimizationDisabledPassesKey) == "a_pass,b_rule");
  const OptimizationRecord record = ReadOptimizationRecord(model).value();
  CHECK(record.level == OptimizationLevel::kExtended);
  CHECK(record.providers == std::vector<std::string>{"cuda", "cpu"});
  CHECK(record.disabled_passes == std::set<std::string>{"a_pass", "b_rule"});

  model.SetMetadata(kOptimizationLevelKey, "fastest");
  const auto bad = ReadOptimizationRecord(model);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("'fastest'") != std::string::npos);
}

TEST_CASE("The resume point skips recorded levels unless providers or passes differ",
          "[optimizer][record]") {
  const OptimizationRecord none;
  CHECK(FindResumePoint(none, {"cpu"}, {}).applied_level == OptimizationLevel::kDisable);

  const OptimizationRecord extended{OptimizationLevel::kExtended, {"cuda", "cpu"}, {"x"}};
  ResumePoint same = FindResumePoint(extended, {"cpu", "cuda"}, {"x", "y"});
  CHECK(same.applied_level == OptimizationLevel::kExtended);
  CHECK(same.reason.empty());

  // Passes of the recorded level may serve the new providers: that level runs again.
  ResumePoint other = FindResumePoint(extended, {"cpu"}, {"x"});
  CHECK(other.applied_level == OptimizationLevel::kBasic);
  CHECK(other.reason.find("providers [cuda,cpu]") != std::string::npos);

  // A pass the offline run skipped may sit at any level: everything runs again.
  ResumePoint enabled = FindResumePoint(extended, {"cpu", "cuda"}, {});
  CHECK(enabled.applied_level == OptimizationLevel::kDisable);
  CHECK(enabled.reason.find("[x] disabled") != std::string::npos);

  const OptimizationRecord updated =
      UpdatedRecord(extended, same, OptimizationLevel::kAll, {"cpu", "cuda"}, {"y"});
  CHECK(updated.level == OptimizationLevel::kAll);
  CHECK(updated.providers == std::vector<std::string>{"cpu", "cuda"});
  CHECK(updated.disabled_passes == std::set<std::string>{"x", "y"});
  const OptimizationRecord rerun =
      UpdatedRecord(extended, enabled, OptimizationLevel::kBasic, {"cpu"}, {});
  CHECK(rerun.level == OptimizationLevel::kExtended);
  CHECK(rerun.disabled_passes.empty());
}

TEST_CASE("A model in NCHWc layout runs only with the block it was laid out for",
          "[optimizer][record]") {
  Model model;
  model.path = "model 'blocked.onnx'";
  RecordNchwcBlockSize(model, 16);
  CHECK(model.Metadata(kNchwcBlockSizeKey).empty());  // no nchwc node: nothing to record
  CHECK(CheckNchwcBlockSize(model, 8).ok());

  model.graph().AddNode({"reorder", "ReorderInput", "com.microsoft.nchwc", {"x"}, {"y"}, {}});
  CHECK(CheckNchwcBlockSize(model, 8).ok());  // unrecorded (onnxruntime's output): assumed
  RecordNchwcBlockSize(model, 16);
  CHECK(model.Metadata(kNchwcBlockSizeKey) == "16");
  CHECK(CheckNchwcBlockSize(model, 16).ok());
  const Status other_cpu = CheckNchwcBlockSize(model, 8);
  REQUIRE_FALSE(other_cpu.ok());
  CHECK(other_cpu.message().find("blocked.onnx") != std::string::npos);
  CHECK(other_cpu.message().find("blocks of 16 channels, this CPU uses 8") != std::string::npos);
}

}  // namespace ort
