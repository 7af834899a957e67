#include "lib/quantization/quantizer.h"

#include <algorithm>

#include "lib/optimizer/optimization_record.h"
#include "lib/quantization/dynamic_quantizer.h"
#include "lib/quantization/qdq_quantizer.h"

namespace ort {
namespace {

void DropOptimizationRecord(Model& model) {
  auto& props = model.metadata_props;
  props.erase(std::remove_if(props.begin(), props.end(),
                             [](const auto& entry) {
                               return entry.first == kOptimizationLevelKey ||
                                      entry.first == kOptimizationProvidersKey ||
                                      entry.first == kOptimizationDisabledPassesKey;
                             }),
              props.end());
}

}  // namespace

Result<std::vector<OpTypeCount>> QuantizeModel(Model& model, QuantizeOptions options,
                                               std::span<const CalibrationSet> sets,
                                               const SessionFactory& make_session) {
  ORT_RETURN_IF_ERROR(CheckOpTypes(options));
  if (options.op_types.empty()) options.op_types = DefaultOpTypes(options.mode);
  std::vector<OpTypeCount> counts;
  if (options.mode == QuantizationMode::kDynamic) {
    ORT_ASSIGN_OR_RETURN(counts, QuantizeDynamic(model, options));
  } else {
    ORT_ASSIGN_OR_RETURN(QdqPlan plan, PlanQdq(model.graph(), options));
    ORT_ASSIGN_OR_RETURN(auto ranges, CollectRanges(model, plan.calibrated, sets,
                                                    options.calibration, make_session));
    ORT_RETURN_IF_ERROR(ApplyQdq(model, plan, ranges, options));
    counts = std::move(plan.counts);
  }
  DropOptimizationRecord(model);
  return counts;
}

}  // namespace ort
