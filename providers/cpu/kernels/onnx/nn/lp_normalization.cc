// LpNormalization: divides each vector along `axis` by its L1 or L2 norm (zero vectors stay zero,
// as in ONNX Runtime, instead of becoming NaN).
#include <cmath>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class LpNormalization final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", -1));
    ORT_ASSIGN_OR_RETURN(p_, info.GetAttributeOr<int64_t>("p", 2));
    if (p_ != 1 && p_ != 2) return ORT_ERROR(kInvalidArgument, "p must be 1 or 2, got {}", p_);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& shape = x->shape();
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), shape));
    if (shape.rank() == 0) return context.Error("input must have rank >= 1");
    ORT_ASSIGN_OR_RETURN(const size_t axis, NormalizeAxis(axis_, shape.rank()));
    const int64_t length = shape[axis];
    const int64_t inner = shape.SizeFromDimension(axis + 1);
    const int64_t outer = shape.SizeToDimension(axis);
    return DispatchByType<TypeList<float, double>>(
        x->dtype(), "LpNormalization", [&]<typename T>() {
          const T* in = x->Data<T>();
          T* out = y->MutableData<T>();
          ThreadPool::TryParallelFor(
              context.thread_pool(), outer * inner, 4.0 * length, [&](int64_t begin, int64_t end) {
                for (int64_t vector = begin; vector < end; ++vector) {
                  const int64_t base = (vector / inner) * length * inner + vector % inner;
                  T norm = 0;
                  for (int64_t i = 0; i < length; ++i) {
                    const T v = in[base + i * inner];
                    norm += p_ == 1 ? std::abs(v) : v * v;
                  }
                  if (p_ == 2) norm = std::sqrt(norm);
                  for (int64_t i = 0; i < length; ++i) {
                    out[base + i * inner] = norm == 0 ? T(0) : in[base + i * inner] / norm;
                  }
                }
              });
          return Status::OK();
        });
  }

 private:
  int64_t axis_ = -1;
  int64_t p_ = 2;
};

}  // namespace

void RegisterLpNormalizationKernels(KernelRegistry& registry) {
  registry.Add<LpNormalization>(
      KernelDef("LpNormalization").Versions(1).Input(0, TypeList<float, double>::DataTypes()));
}

}  // namespace ort
