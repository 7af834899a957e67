// GlobalAveragePool, GlobalMaxPool and GlobalLpPool: one value per (image, channel) over all
// spatial positions; the output keeps the rank with unit spatial dims.
#include <cmath>
#include <limits>

#include "providers/common/nn/pool_attributes.h"
#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

enum class GlobalKind { kAverage, kMax, kLp };

template <GlobalKind kKind>
class GlobalPool final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    if constexpr (kKind == GlobalKind::kLp) {
      if (info.opset() < 2) {
        // GlobalLpPool-1 declared p as a float.
        ORT_ASSIGN_OR_RETURN(const float p, info.GetAttributeOr<float>("p", 2.0f));
        p_ = p;
      } else {
        ORT_ASSIGN_OR_RETURN(const int64_t p, info.GetAttributeOr<int64_t>("p", 2));
        p_ = static_cast<double>(p);
      }
      if (!(p_ > 0)) return ORT_ERROR(kInvalidArgument, "p must be positive, got {}", p_);
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    ORT_ASSIGN_OR_RETURN(TensorShape y_shape, GlobalPoolOutputShape(context, xs));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), std::move(y_shape)));
    const int64_t planes = xs[0] * xs[1];
    const int64_t size = xs.SizeFromDimension(2);
    return DispatchByType<FloatTypes>(x->dtype(), context.node().op_type(), [&]<typename T>() {
      using C = ComputeType<T>;
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      ThreadPool::TryParallelFor(context.thread_pool(), planes, static_cast<double>(size),
                                 [&](int64_t begin, int64_t end) {
                                   for (int64_t plane = begin; plane < end; ++plane) {
                                     out[plane] =
                                         static_cast<T>(Reduce<T, C>(in + plane * size, size));
                                   }
                                 });
      return Status::OK();
    });
  }

 private:
  template <typename T, typename C>
  C Reduce(const T* values, int64_t size) const {
    if constexpr (kKind == GlobalKind::kMax) {
      C best = size > 0 ? C(values[0]) : C(0);
      for (int64_t i = 1; i < size; ++i) {
        const C value = C(values[i]);
        if (value > best) best = value;
      }
      return best;
    } else if constexpr (kKind == GlobalKind::kAverage) {
      C sum = C(0);
      for (int64_t i = 0; i < size; ++i) sum += C(values[i]);
      return size > 0 ? sum / static_cast<C>(size) : C(0);
    } else {
      C sum = C(0);
      for (int64_t i = 0; i < size; ++i) {
        const C magnitude = std::abs(C(values[i]));
        sum += p_ == 2 ? magnitude * magnitude
                       : static_cast<C>(std::pow(magnitude, static_cast<C>(p_)));
      }
      return p_ == 2 ? std::sqrt(sum) : static_cast<C>(std::pow(sum, C(1) / static_cast<C>(p_)));
    }
  }

  double p_ = 2.0;  // fractional only in opset 1
};

}  // namespace

void RegisterGlobalPoolKernels(KernelRegistry& registry) {
  // bfloat16 is accepted too (opset 22 adds it; same computation).
  const auto types = FloatTypes::DataTypes();
  registry.Add<GlobalPool<GlobalKind::kAverage>>(
      KernelDef("GlobalAveragePool").Versions(1).Input(0, types));
  registry.Add<GlobalPool<GlobalKind::kMax>>(
      KernelDef("GlobalMaxPool").Versions(1).Input(0, types));
  registry.Add<GlobalPool<GlobalKind::kLp>>(
      KernelDef("GlobalLpPool").Versions(1, 1).Input(0, types));
  registry.Add<GlobalPool<GlobalKind::kLp>>(KernelDef("GlobalLpPool").Versions(2).Input(0, types));
}

}  // namespace ort
