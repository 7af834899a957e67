// Checks the CPU kernel registry against onnx's schema history up to the newest opset the loader
// accepts: version ranges must start and end where the spec really changed an op and leave no
// gaps, so a model exported at any accepted opset finds its kernel.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lib/onnx/model_loader.h"
#include "providers/cpu/cpu_provider.h"
#include "test/providers/cpu/onnx_schema_history.h"

namespace ort {
namespace {

using test::OnnxSchemaHistory;
using test::SchemaVersion;

constexpr int kNewestOpset = static_cast<int>(kMaxOnnxOpset);

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

// Default-domain ops that neither have a CPU kernel nor expand at the newest opset.
// ONNX Runtime has no kernel for ImageDecoder either: it would need image codecs
// (microsoft/onnxruntime#17593).
const std::set<std::string> kNoKernelByDesign = {"ImageDecoder"};
// Known gaps, not by design: ONNX Runtime runs DeformConv (19, 22) on CPU since
// microsoft/onnxruntime#27393 and this engine has no kernel for it yet.
const std::set<std::string> kMissingKernels = {"DeformConv"};

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

const OnnxSchemaHistory& History() {
  static const OnnxSchemaHistory history(std::string(ORT_TEST_DATA_DIR) +
                                         "/onnx_schema_history.tsv");
  return history;
}

// The opset at which the op's definition in force at `version` was introduced (0 when none).
int SchemaSince(const std::string& op, int version) {
  const std::optional<SchemaVersion> schema = History().At(op, version);
  return schema ? schema->since : 0;
}

bool Covers(const std::vector<Range>& ranges, int version) {
  return std::any_of(ranges.begin(), ranges.end(), [&](const Range& range) {
    return range.since <= version && version <= range.until;
  });
}

}  // namespace

TEST_CASE("the schema history reaches the newest opset the loader accepts") {
  INFO("regenerate test/data/onnx_schema_history.tsv with tools/gen_onnx_schema_history.py");
  CHECK(History().table_first_opset() == History().libonnx_opset() + 1);
  CHECK(History().table_last_opset() == kNewestOpset);
}

TEST_CASE("CPU kernel ranges start and end on real schema versions") {
  for (const auto& [op, ranges] : DefaultDomainRanges()) {
    for (const Range& range : ranges) {
      if (range.since > kNewestOpset) continue;
      INFO(op << " [" << range.since << ", " << range.until << "]");
      const bool ort_defined = kOrtDefinedOps.count(op) > 0 && SchemaSince(op, range.since) == 0;
      if (!ort_defined) CHECK(SchemaSince(op, range.since) == range.since);
      if (range.until < kNewestOpset) CHECK(SchemaSince(op, range.until + 1) == range.until + 1);
    }
  }
}

TEST_CASE("CPU kernel ranges leave no gaps up to the newest accepted opset") {
  for (const auto& [op, ranges] : DefaultDomainRanges()) {
    const int first =
        std::min_element(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
          return a.since < b.since;
        })->since;
    const std::optional<SchemaVersion> newest = History().At(op, kNewestOpset);
    const int last =
        !newest || newest->deprecated
            ? std::max_element(ranges.begin(), ranges.end(),
                               [](const Range& a, const Range& b) { return a.until < b.until; })
                  ->until
            : kNewestOpset;
    for (int version = first; version <= std::min(last, kNewestOpset); ++version) {
      if (SchemaSince(op, version) == 0) continue;  // op removed from the spec at this opset
      INFO(op << " at opset " << version);
      CHECK(Covers(ranges, version));
    }
  }
}

TEST_CASE("every default-domain op at the newest accepted opset has a kernel or a function body") {
  const auto ranges = DefaultDomainRanges();
  for (const std::string& op : History().Ops()) {
    const std::optional<SchemaVersion> newest = History().At(op, kNewestOpset);
    if (!newest || newest->deprecated) continue;
    const auto it = ranges.find(op);
    const bool has_kernel = it != ranges.end() && Covers(it->second, kNewestOpset);
    // Function ops are expanded with libonnx's schemas, so only a body libonnx has counts.
    const std::optional<SchemaVersion> in_libonnx = History().At(op, History().libonnx_opset());
    const bool expands = newest->has_function && in_libonnx && in_libonnx->has_function;
    INFO(op << "-" << newest->since);
    if (kNoKernelByDesign.count(op) > 0 || kMissingKernels.count(op) > 0) {
      INFO("runs now: take it off the exception list");
      CHECK_FALSE((has_kernel || expands));
    } else {
      CHECK((has_kernel || expands));
    }
  }
}

}  // namespace ort
