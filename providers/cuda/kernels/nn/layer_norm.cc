// LayerNormalization (opset 17) on the GPU over the axes from `axis` on, float and float16
// (statistics in float; the optional Mean and InvStdDev outputs are float, stash_type 1).
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/nn/layer_norm_launch.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

class LayerNorm final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", -1));
    ORT_ASSIGN_OR_RETURN(epsilon_, info.GetAttributeOr<float>("epsilon", 1e-5f));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* scale, context.RequiredInput(1));
    const Tensor* bias = context.Input(2);
    auto axis = NormalizeAxis(axis_, x->shape().rank());
    if (!axis.ok()) return context.Error("axis: {}", axis.status().message());
    const int64_t cols = x->shape().SizeFromDimension(*axis);
    if (scale->NumElements() != cols || (bias != nullptr && bias->NumElements() != cols) ||
        scale->dtype() != x->dtype() || (bias != nullptr && bias->dtype() != x->dtype())) {
      return context.Error("Scale {} and B must hold {} values of X's type {}", scale->Describe(),
                           cols, DataTypeName(x->dtype()));
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), x->shape()));
    // Mean and InvStdDev keep X's leading axes and have size 1 on the normalized ones.
    std::vector<int64_t> stats_dims = x->shape().dims();
    for (size_t d = *axis; d < stats_dims.size(); ++d) stats_dims[d] = 1;
    float* stats[2] = {nullptr, nullptr};
    for (size_t i = 0; i < 2; ++i) {
      if (!context.IsOutputUsed(i + 1)) continue;
      ORT_ASSIGN_OR_RETURN(Tensor * out,
                           context.Output(i + 1, DataType::kFloat, TensorShape(stats_dims)));
      stats[i] = out->MutableData<float>();
    }
    const auto kind =
        x->dtype() == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
    return CudaStatus(
        cuda::LaunchLayerNorm(kind, x->RawData(), scale->RawData(),
                              bias != nullptr ? bias->RawData() : nullptr, y->MutableRawData(),
                              stats[0], stats[1], x->shape().SizeToDimension(*axis), cols, epsilon_,
                              stream()),
        context.node().Describe());
  }

 private:
  int64_t axis_ = -1;
  float epsilon_ = 1e-5f;
};

}  // namespace

void RegisterCudaLayerNormKernels(KernelRegistry& registry) {
  registry.Add<LayerNorm>(KernelDef("LayerNormalization").Versions(17).Input(0, kTypes));
}

}  // namespace ort
