// BatchNormalization on the GPU in inference mode (running statistics), every opset, float and
// float16 data with float or float16 parameters (computed in float). Opsets before 9 may
// normalize per activation (spatial = 0). Training is left to the CPU kernel.
#include "providers/common/nn/batch_norm_attributes.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/nn/batch_norm_launch.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

cuda::ElementKind KindOf(DataType type) {
  return type == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
}

class BatchNorm final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info));
    if (attributes_.training) {
      return ORT_ERROR(kNotImplemented,
                       "the CUDA BatchNormalization kernel only runs inference (training_mode 0, "
                       "no statistics outputs)");
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    ORT_ASSIGN_OR_RETURN(const BatchNormLayout layout,
                         MakeBatchNormLayout(context, xs, attributes_.spatial));
    const Tensor* params[4] = {};
    for (size_t i = 0; i < 4; ++i) {
      ORT_ASSIGN_OR_RETURN(params[i], context.RequiredInput(i + 1));
    }
    const int64_t features = layout.features;
    for (size_t i = 0; i < 4; ++i) {
      const DataType type = params[i]->dtype();
      if (params[i]->NumElements() != features ||
          (type != DataType::kFloat && type != DataType::kFloat16)) {
        return context.Error("input {} is {}, expected {} float or float16 values for X {}", i + 1,
                             params[i]->Describe(), features, xs.ToString());
      }
    }
    if (params[0]->dtype() != params[1]->dtype() || params[2]->dtype() != params[3]->dtype()) {
      return context.Error("scale {} and B {} (and mean {} and var {}) must share a type",
                           params[0]->Describe(), params[1]->Describe(), params[2]->Describe(),
                           params[3]->Describe());
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), xs));
    cuda::BatchNormParams launch;
    launch.scale = params[0]->RawData();
    launch.bias = params[1]->RawData();
    launch.scale_kind = KindOf(params[0]->dtype());
    launch.mean = params[2]->RawData();
    launch.var = params[3]->RawData();
    launch.stats_kind = KindOf(params[2]->dtype());
    return CudaStatus(
        cuda::LaunchBatchNorm(KindOf(x->dtype()), x->RawData(), y->MutableRawData(), launch,
                              layout.batch, features, layout.inner, attributes_.epsilon, stream()),
        context.node());
  }

 private:
  BatchNormAttributes attributes_;
};

// Statistics outputs (running and batch ones) are typed once the model's types are inferred:
// allowing them no type leaves a training node to another provider.
void Add(KernelRegistry& registry, int since, int until) {
  KernelDef def("BatchNormalization");
  def.Versions(since, until);
  for (int i = 0; i < 5; ++i) def.Input(i, kTypes);
  for (int i = 1; i < 5; ++i) def.Output(i, {});
  registry.Add<BatchNorm>(std::move(def));
}

}  // namespace

void RegisterCudaBatchNormKernels(KernelRegistry& registry) {
  Add(registry, 1, 5);
  Add(registry, 6, 6);
  Add(registry, 7, 8);
  Add(registry, 9, 13);
  Add(registry, 14, 14);
  Add(registry, 15, INT_MAX);
}

}  // namespace ort
