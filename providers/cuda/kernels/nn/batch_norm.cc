// BatchNormalization on the GPU in inference mode (running statistics), every opset, float and
// float16 data with float or float16 parameters (computed in float). Opsets before 9 may
// normalize per activation (spatial = 0). Training is left to the CPU kernel.
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
    ORT_ASSIGN_OR_RETURN(epsilon_, info.GetAttributeOr<float>("epsilon", 1e-5f));
    const int64_t opset = info.opset();
    if (opset < 9) {
      ORT_ASSIGN_OR_RETURN(const int64_t spatial, info.GetAttributeOr<int64_t>("spatial", 1));
      spatial_ = spatial != 0;
    }
    // Training as the CPU kernel decides it: training_mode from opset 14, before that a named
    // statistics output (with is_test = 0 before opset 7).
    bool training = false;
    if (opset >= 14) {
      ORT_ASSIGN_OR_RETURN(const int64_t mode, info.GetAttributeOr<int64_t>("training_mode", 0));
      training = mode != 0;
    } else {
      int64_t is_test = 0;
      if (opset < 7) {
        ORT_ASSIGN_OR_RETURN(is_test, info.GetAttributeOr<int64_t>("is_test", 0));
      }
      for (size_t i = 1; i < info.OutputCount(); ++i) {
        training = training || (is_test == 0 && info.node().HasOutput(i));
      }
    }
    if (training) {
      return ORT_ERROR(kNotImplemented,
                       "the CUDA BatchNormalization kernel only runs inference (training_mode 0, "
                       "no statistics outputs)");
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    if (xs.rank() < 2) return context.Error("X {} must be [N, C, ...]", xs.ToString());
    const Tensor* params[4] = {};
    for (size_t i = 0; i < 4; ++i) {
      ORT_ASSIGN_OR_RETURN(params[i], context.RequiredInput(i + 1));
    }
    // X viewed as [N, F, inner]: F channels of `inner` values each, or every activation a feature
    // of its own when spatial = 0.
    const int64_t features = spatial_ ? xs[1] : xs.SizeFromDimension(1);
    const int64_t inner = spatial_ ? xs.SizeFromDimension(2) : 1;
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
    return CudaStatus(cuda::LaunchBatchNorm(KindOf(x->dtype()), x->RawData(), y->MutableRawData(),
                                            launch, xs[0], features, inner, epsilon_, stream()),
                      context.node().Describe());
  }

 private:
  float epsilon_ = 1e-5f;
  bool spatial_ = true;
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
