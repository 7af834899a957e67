// GELU on the GPU: ONNX Gelu (opset 20, erf or tanh form) and ONNX Runtime's com.microsoft Gelu,
// FastGelu (tanh form, optional bias), BiasGelu (erf form of A + bias) and QuickGelu
// (x sigmoid(alpha x)); biases are 1-D over the last axis. Float and float16.
#include "providers/common/activation/gelu_approximate.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/activation/gelu_launch.h"
#include "providers/cuda/kernels/cuda_kernels.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

// kForm for the contrib ops; ONNX Gelu (kOnnx) reads it from `approximate` and has no bias.
// kBiasRequired: BiasGelu's input 1 must be present.
template <cuda::GeluForm kForm, bool kOnnx, bool kBiasRequired>
class Gelu final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    if (kOnnx) {
      ORT_ASSIGN_OR_RETURN(const bool tanh, ParseGeluTanhApproximation(info));
      form_ = tanh ? cuda::GeluForm::kTanh : cuda::GeluForm::kErf;
    }
    if (form_ == cuda::GeluForm::kQuick) {
      ORT_ASSIGN_OR_RETURN(alpha_, info.GetAttributeOr<float>("alpha", 1.702f));
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const Tensor* bias = kOnnx ? nullptr : context.Input(1);
    if (bias == nullptr && kBiasRequired) ORT_RETURN_IF_ERROR(context.RequiredInput(1).status());
    const TensorShape& shape = x->shape();
    const int64_t width = shape.rank() == 0 ? 1 : shape[shape.rank() - 1];
    if (bias != nullptr &&
        (shape.rank() == 0 || bias->shape() != TensorShape{width} || bias->dtype() != x->dtype())) {
      return context.Error("bias {} must be 1-D with the last dimension of X {}", bias->Describe(),
                           x->Describe());
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), shape));
    const auto kind =
        x->dtype() == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
    return CudaStatus(
        cuda::LaunchGelu(form_, kind, x->RawData(), bias != nullptr ? bias->RawData() : nullptr,
                         y->MutableRawData(), x->NumElements(), width, alpha_, stream()),
        context.node());
  }

 private:
  cuda::GeluForm form_ = kForm;
  float alpha_ = 1.702f;
};

KernelDef MsDef(const char* name) {
  return KernelDef(name, std::string(kMsDomain)).Versions(1).Input(0, kTypes).MayInplace(0, 0);
}

}  // namespace

void RegisterCudaGeluKernels(KernelRegistry& registry) {
  using cuda::GeluForm;
  registry.Add<Gelu<GeluForm::kErf, true, false>>(
      KernelDef("Gelu").Versions(20).Input(0, kTypes).MayInplace(0, 0));
  registry.Add<Gelu<GeluForm::kErf, false, false>>(MsDef("Gelu"));
  registry.Add<Gelu<GeluForm::kQuick, false, false>>(MsDef("QuickGelu"));
  registry.Add<Gelu<GeluForm::kTanh, false, false>>(MsDef("FastGelu"));
  registry.Add<Gelu<GeluForm::kErf, false, true>>(MsDef("BiasGelu"));
}

}  // namespace ort
