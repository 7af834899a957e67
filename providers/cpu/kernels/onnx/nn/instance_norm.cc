// InstanceNormalization: each (image, channel) plane normalized by its own mean and variance,
// then scaled and shifted per channel.
#include <cmath>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class InstanceNormalization final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(epsilon_, info.GetAttributeOr<float>("epsilon", 1e-5f));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* scale, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* bias, context.RequiredInput(2));
    const TensorShape& xs = x->shape();
    if (xs.rank() < 2) return context.Error("X {} must be [N, C, ...]", xs.ToString());
    const int64_t channels = xs[1];
    if (scale->NumElements() != channels || bias->NumElements() != channels) {
      return context.Error("scale {} and B {} must have C = {} values", scale->shape().ToString(),
                           bias->shape().ToString(), channels);
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), xs));
    const int64_t planes = xs[0] * channels;
    const int64_t size = xs.SizeFromDimension(2);
    return DispatchByType<FloatTypes>(x->dtype(), "InstanceNormalization", [&]<typename T>() {
      using C = ComputeType<T>;
      ORT_ASSIGN_OR_RETURN(const std::vector<C> gamma, ReadFloatParams<C>(*scale));
      ORT_ASSIGN_OR_RETURN(const std::vector<C> beta, ReadFloatParams<C>(*bias));
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      ThreadPool::TryParallelFor(
          context.thread_pool(), planes, 5.0 * size, [&](int64_t begin, int64_t end) {
            for (int64_t plane = begin; plane < end; ++plane) {
              const T* src = in + plane * size;
              T* dst = out + plane * size;
              C sum = C(0);
              for (int64_t i = 0; i < size; ++i) sum += C(src[i]);
              const C mean = size > 0 ? sum / static_cast<C>(size) : C(0);
              C squares = C(0);
              for (int64_t i = 0; i < size; ++i) squares += (C(src[i]) - mean) * (C(src[i]) - mean);
              const C var = size > 0 ? squares / static_cast<C>(size) : C(0);
              const int64_t c = plane % channels;
              const C a = gamma[c] / static_cast<C>(std::sqrt(var + static_cast<C>(epsilon_)));
              const C b = beta[c] - mean * a;
              for (int64_t i = 0; i < size; ++i) dst[i] = static_cast<T>(C(src[i]) * a + b);
            }
          });
      return Status::OK();
    });
  }

 private:
  float epsilon_ = 1e-5f;
};

}  // namespace

void RegisterInstanceNormalizationKernels(KernelRegistry& registry) {
  // bfloat16 is accepted too (opset 22 adds it; same computation).
  const auto types = FloatTypes::DataTypes();
  registry.Add<InstanceNormalization>(
      KernelDef("InstanceNormalization").Versions(1, 5).Input(0, types));
  registry.Add<InstanceNormalization>(
      KernelDef("InstanceNormalization").Versions(6).Input(0, types));
}

}  // namespace ort
