#include "providers/common/nn/batch_norm_attributes.h"

namespace ort {
namespace {

// Before opset 14 training is selected by naming a statistics output (and, before opset 7, by
// leaving is_test at 0).
Result<bool> LegacyTraining(const KernelInfo& info) {
  int64_t is_test = 0;
  if (info.opset() < 7) {
    ORT_ASSIGN_OR_RETURN(is_test, info.GetAttributeOr<int64_t>("is_test", 0));
  }
  bool statistics_requested = false;
  for (size_t i = 1; i < info.OutputCount(); ++i) {
    statistics_requested = statistics_requested || info.node().HasOutput(i);
  }
  return is_test == 0 && statistics_requested;
}

}  // namespace

Status BatchNormAttributes::Parse(const KernelInfo& info) {
  ORT_ASSIGN_OR_RETURN(epsilon, info.GetAttributeOr<float>("epsilon", 1e-5f));
  const int64_t opset = info.opset();
  if (opset < 9) {
    ORT_ASSIGN_OR_RETURN(const int64_t spatial_mode, info.GetAttributeOr<int64_t>("spatial", 1));
    spatial = spatial_mode != 0;
  }
  if (opset >= 14) {
    ORT_ASSIGN_OR_RETURN(const int64_t mode, info.GetAttributeOr<int64_t>("training_mode", 0));
    training = mode != 0;
    return Status::OK();
  }
  ORT_ASSIGN_OR_RETURN(training, LegacyTraining(info));
  return Status::OK();
}

Result<BatchNormLayout> MakeBatchNormLayout(const KernelContext& context, const TensorShape& x,
                                            bool spatial) {
  if (x.rank() < 2) return context.Error("X {} must be [N, C, ...]", x.ToString());
  BatchNormLayout layout;
  layout.batch = x[0];
  layout.features = spatial ? x[1] : x.SizeFromDimension(1);
  layout.inner = spatial ? x.SizeFromDimension(2) : 1;
  return layout;
}

}  // namespace ort
