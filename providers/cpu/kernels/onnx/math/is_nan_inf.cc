// IsNaN and IsInf (detect_negative / detect_positive): float tensors to bool masks.
#include <cmath>
#include <limits>

#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

class IsNaN final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    return DispatchByType<FloatTypes>(x->dtype(), "IsNaN", [&]<typename T>() {
      return ComputeUnary<T, bool>(context, [](ComputeType<T> v) { return v != v; });
    });
  }
};

class IsInf final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t negative,
                         info.GetAttributeOr<int64_t>("detect_negative", 1));
    ORT_ASSIGN_OR_RETURN(const int64_t positive,
                         info.GetAttributeOr<int64_t>("detect_positive", 1));
    detect_negative_ = negative != 0;
    detect_positive_ = positive != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    return DispatchByType<FloatTypes>(x->dtype(), "IsInf", [&]<typename T>() {
      using C = ComputeType<T>;
      // A disabled side compares against NaN, which equals nothing.
      const C nan = std::numeric_limits<C>::quiet_NaN();
      const C negative = detect_negative_ ? -std::numeric_limits<C>::infinity() : nan;
      const C positive = detect_positive_ ? std::numeric_limits<C>::infinity() : nan;
      return ComputeUnary<T, bool>(context, [=](C v) { return v == negative || v == positive; });
    });
  }

 private:
  bool detect_negative_ = true;
  bool detect_positive_ = true;
};

}  // namespace

void RegisterIsNaNInfKernels(KernelRegistry& registry) {
  registry.Add<IsNaN>(KernelDef("IsNaN").Versions(9).Input(0, FloatTypes::DataTypes()));
  registry.Add<IsInf>(KernelDef("IsInf").Versions(10).Input(0, FloatTypes::DataTypes()));
}

}  // namespace ort
