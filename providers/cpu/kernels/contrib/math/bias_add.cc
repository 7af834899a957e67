// com.microsoft BiasAdd: Y = X + bias + skip, where X and skip are [N, S, C] and bias is [C]
// (the residual add of diffusion UNet blocks).
#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/contrib/math/contrib_math_kernels.h"

namespace ort {
namespace {

class BiasAdd final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* bias, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* skip, context.RequiredInput(2));
    const TensorShape& shape = x->shape();
    if (shape.rank() != 3) return context.Error("X must be 3-D, got {}", shape.ToString());
    const int64_t channels = shape[2];
    if (bias->shape() != TensorShape{channels}) {
      return context.Error("bias {} must be [{}]", bias->shape().ToString(), channels);
    }
    if (skip->shape() != shape) {
      return context.Error("skip {} must have X's shape {}", skip->shape().ToString(),
                           shape.ToString());
    }
    if (bias->dtype() != x->dtype() || skip->dtype() != x->dtype()) {
      return context.Error("X, bias and skip must share one element type");
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), shape));
    const int64_t rows = channels == 0 ? 0 : x->NumElements() / channels;
    return DispatchByType<FloatTypes>(x->dtype(), "BiasAdd", [&]<typename T>() {
      using C = ComputeType<T>;
      const T* in = x->Data<T>();
      const T* b = bias->Data<T>();
      const T* s = skip->Data<T>();
      T* out = y->MutableData<T>();
      ThreadPool::TryParallelFor(
          context.thread_pool(), rows, 2.0 * static_cast<double>(channels),
          [&](int64_t begin, int64_t end) {
            for (int64_t row = begin; row < end; ++row) {
              const int64_t offset = row * channels;
              for (int64_t c = 0; c < channels; ++c) {
                out[offset + c] = static_cast<T>(C(in[offset + c]) + C(b[c]) + C(s[offset + c]));
              }
            }
          });
      return Status::OK();
    });
  }
};

}  // namespace

void RegisterBiasAddKernels(KernelRegistry& registry) {
  registry.Add<BiasAdd>(KernelDef("BiasAdd", std::string(kMsDomain))
                            .Versions(1)
                            .Input(0, FloatTypes::DataTypes())
                            .MayInplace(0, 0));
}

}  // namespace ort
