// Checks the CPU kernel registry against onnx's schema history: version ranges must start and end
// where the spec really changed an op, leave no gaps, and reach the newest opset the onnx library
// knows, so a model exported at any opset finds its kernel.
#include <onnx/defs/schema.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <climits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "providers/cpu/cpu_provider.h"

namespace ort {
namespace {

constexpr int kNewestKnownOpset = 17;  // Debian's onnx 1.12

// Ops ONNX Runtime defines in the ai.onnx domain at versions where onnx has no schema for them
// (LayerNormalization before onnx adopted it at 17, and the experimental opset-1 ops ORT keeps,
// ThresholdedRelu and MeanVarianceNormalization before their standard versions); their ranges
// start where ORT's do.
const std::set<std::string> kOrtDefinedOps = {"LayerNormalization",
                                              "SimplifiedLayerNormalization",
                                              "ImageScaler",
                                              "Crop",
                                              "Affine",
                                              "ScaledTanh",
                                              "ParametricSoftplus",
                                              "Scale",
                                              "DynamicSlice",
                                              "ThresholdedRelu",
                                              "MeanVarianceNormalization"};

struct Range {
  int since;
  int until;
};

std::map<std::string, std::vector<Range>> DefaultDomainRanges() {
  std::map<std::string, std::vector<Range>> ranges;
  for (const KernelEntry* entry : CpuKernelRegistry().Entries()) {
    if (!entry->def.domain().empty() && entry->def.domain() != "ai.onnx") continue;
    ranges[entry->def.op_type()].push_back({entry->def.since(), entry->def.until()});
  }
  return ranges;
}

// The opset at which the op's definition in force at `version` was introduced (0 when unknown).
int SchemaSince(const std::string& op, int version) {
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(op, version, "");
  return schema == nullptr ? 0 : schema->SinceVersion();
}

}  // namespace

TEST_CASE("CPU kernel ranges start and end on real schema versions") {
  for (const auto& [op, ranges] : DefaultDomainRanges()) {
    for (const Range& range : ranges) {
      if (range.since > kNewestKnownOpset) continue;  // newer than onnx 1.12 knows
      INFO(op << " [" << range.since << ", " << range.until << "]");
      const bool ort_defined = kOrtDefinedOps.count(op) > 0 && SchemaSince(op, range.since) == 0;
      if (!ort_defined) CHECK(SchemaSince(op, range.since) == range.since);
      if (range.until < kNewestKnownOpset)
        CHECK(SchemaSince(op, range.until + 1) == range.until + 1);
    }
  }
}

TEST_CASE("CPU kernel ranges leave no gaps up to the newest known opset") {
  for (const auto& [op, ranges] : DefaultDomainRanges()) {
    const int first =
        std::min_element(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
          return a.since < b.since;
        })->since;
    const onnx::OpSchema* newest = onnx::OpSchemaRegistry::Schema(op, kNewestKnownOpset, "");
    const int last =
        newest == nullptr || newest->Deprecated()
            ? std::max_element(ranges.begin(), ranges.end(),
                               [](const Range& a, const Range& b) { return a.until < b.until; })
                  ->until
            : kNewestKnownOpset;
    for (int version = first; version <= std::min(last, kNewestKnownOpset); ++version) {
      if (SchemaSince(op, version) == 0) continue;  // op removed from the spec at this opset
      const bool covered = std::any_of(ranges.begin(), ranges.end(), [&](const Range& range) {
        return range.since <= version && version <= range.until;
      });
      INFO(op << " at opset " << version);
      CHECK(covered);
    }
  }
}

TEST_CASE("every default-domain op at the newest known opset has a kernel or a function body") {
  const auto ranges = DefaultDomainRanges();
  std::set<std::string> seen;
  for (const onnx::OpSchema& schema : onnx::OpSchemaRegistry::get_all_schemas()) {
    if (!schema.domain().empty() || !seen.insert(schema.Name()).second) continue;
    const onnx::OpSchema* newest =
        onnx::OpSchemaRegistry::Schema(schema.Name(), kNewestKnownOpset, "");
    if (newest == nullptr || newest->Deprecated()) continue;
    const auto it = ranges.find(schema.Name());
    const bool has_kernel =
        it != ranges.end() &&
        std::any_of(it->second.begin(), it->second.end(), [](const Range& range) {
          return range.since <= kNewestKnownOpset && kNewestKnownOpset <= range.until;
        });
    const bool expands = newest->HasFunction() || newest->HasContextDependentFunction();
    INFO(schema.Name());
    CHECK((has_kernel || expands));
  }
}

}  // namespace ort
