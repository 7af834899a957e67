// LRN: local response normalization across channels,
//   y = x / (bias + alpha / size * sum of x^2 over the `size` neighbouring channels) ^ beta.
#include <cmath>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class Lrn final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(alpha_, info.GetAttributeOr<float>("alpha", 1e-4f));
    ORT_ASSIGN_OR_RETURN(beta_, info.GetAttributeOr<float>("beta", 0.75f));
    ORT_ASSIGN_OR_RETURN(bias_, info.GetAttributeOr<float>("bias", 1.0f));
    ORT_ASSIGN_OR_RETURN(size_, info.GetAttribute<int64_t>("size"));
    if (size_ <= 0) return ORT_ERROR(kInvalidArgument, "size must be positive, got {}", size_);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    if (xs.rank() < 2) return context.Error("X {} must be [N, C, ...]", xs.ToString());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), xs));
    const int64_t channels = xs[1];
    const int64_t spatial = xs.SizeFromDimension(2);
    // Window of channels [c - before, c + after].
    const int64_t before = (size_ - 1) / 2;
    const int64_t after = size_ - 1 - before;
    return DispatchByType<FloatTypes>(x->dtype(), "LRN", [&]<typename T>() {
      using C = ComputeType<T>;
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      const C scale = static_cast<C>(alpha_) / static_cast<C>(size_);
      ThreadPool::TryParallelFor(
          context.thread_pool(), xs[0] * channels, 20.0 * spatial + 2.0 * size_ * spatial,
          [&](int64_t begin, int64_t end) {
            std::vector<C> sums(static_cast<size_t>(spatial));
            for (int64_t row = begin; row < end; ++row) {
              const int64_t n = row / channels;
              const int64_t c = row % channels;
              std::fill(sums.begin(), sums.end(), C(0));
              const int64_t first = std::max<int64_t>(0, c - before);
              const int64_t last = std::min<int64_t>(channels - 1, c + after);
              for (int64_t k = first; k <= last; ++k) {
                const T* src = in + (n * channels + k) * spatial;
                for (int64_t i = 0; i < spatial; ++i) sums[i] += C(src[i]) * C(src[i]);
              }
              const T* src = in + row * spatial;
              T* dst = out + row * spatial;
              for (int64_t i = 0; i < spatial; ++i) {
                const C denominator = static_cast<C>(
                    std::pow(static_cast<C>(bias_) + scale * sums[i], static_cast<C>(beta_)));
                dst[i] = static_cast<T>(C(src[i]) / denominator);
              }
            }
          });
      return Status::OK();
    });
  }

 private:
  float alpha_ = 1e-4f;
  float beta_ = 0.75f;
  float bias_ = 1.0f;
  int64_t size_ = 1;
};

}  // namespace

void RegisterLrnKernels(KernelRegistry& registry) {
  registry.Add<Lrn>(
      KernelDef("LRN").Versions(1, 12).Input(0, TypeList<float, double, Float16>::DataTypes()));
  registry.Add<Lrn>(KernelDef("LRN").Versions(13).Input(0, FloatTypes::DataTypes()));
}

}  // namespace ort
