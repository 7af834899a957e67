// ImageScaler, the experimental opset-1 op ONNX Runtime keeps (old model-zoo models start with
// it): y[n, c] = scale * x[n, c] + bias[c] over an NCHW image.
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class ImageScaler final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(scale_, info.GetAttributeOr<float>("scale", 1.0f));
    ORT_ASSIGN_OR_RETURN(bias_, info.GetAttributeOr<std::vector<float>>("bias", {}));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    if (xs.rank() != 4) return context.Error("X must be NCHW, got {}", x->Describe());
    if (static_cast<int64_t>(bias_.size()) != xs[1]) {
      return context.Error("bias has {} values for {} channels", bias_.size(), xs[1]);
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), xs));
    const int64_t planes = xs[0] * xs[1], size = xs[2] * xs[3];
    const float* in = x->Data<float>();
    float* out = y->MutableData<float>();
    ThreadPool::TryParallelFor(context.thread_pool(), planes, static_cast<double>(size),
                               [&](int64_t begin, int64_t end) {
                                 for (int64_t p = begin; p < end; ++p) {
                                   const float bias = bias_[static_cast<size_t>(p % xs[1])];
                                   for (int64_t i = p * size; i < (p + 1) * size; ++i) {
                                     out[i] = scale_ * in[i] + bias;
                                   }
                                 }
                               });
    return Status::OK();
  }

 private:
  float scale_ = 1.0f;
  std::vector<float> bias_;
};

}  // namespace

void RegisterImageScalerKernels(KernelRegistry& registry) {
  registry.Add<ImageScaler>(
      KernelDef("ImageScaler").Versions(1).Input(0, {DataType::kFloat}).MayInplace(0, 0));
}

}  // namespace ort
