// Clip: min/max attributes up to opset 6, optional scalar min/max inputs from opset 11 (numeric
// types from 12). y = min(max(x, lo), hi) like numpy.clip; NaN stays NaN.
#include <limits>

#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

class Clip final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    attribute_bounds_ = info.opset() < 11;
    if (!attribute_bounds_) return Status::OK();
    ORT_ASSIGN_OR_RETURN(min_,
                         info.GetAttributeOr<float>("min", std::numeric_limits<float>::lowest()));
    ORT_ASSIGN_OR_RETURN(max_,
                         info.GetAttributeOr<float>("max", std::numeric_limits<float>::max()));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    return DispatchByType<NumericTypes>(x->dtype(), "Clip", [&]<typename T>() {
      using C = ComputeType<T>;
      C lo = std::numeric_limits<C>::lowest();
      C hi = std::numeric_limits<C>::max();
      if (attribute_bounds_) {
        if constexpr (std::is_floating_point_v<C>) {
          lo = static_cast<C>(min_);
          hi = static_cast<C>(max_);
        }
      } else {
        ORT_RETURN_IF_ERROR(ReadBound<T>(context, 1, &lo));
        ORT_RETURN_IF_ERROR(ReadBound<T>(context, 2, &hi));
      }
      if constexpr (std::is_floating_point_v<C>) {
        return ComputeUnary<T, T>(context, [lo, hi](C v) {
          const C low = Select(v < lo, lo, v);
          return Select(low > hi, hi, low);
        });
      } else {
        return ComputeUnary<T, T>(context, [lo, hi](C v) {
          const C low = v < lo ? lo : v;
          return low > hi ? hi : low;
        });
      }
    });
  }

 private:
  template <typename T>
  static Status ReadBound(const KernelContext& context, size_t index, ComputeType<T>* bound) {
    const Tensor* tensor = context.Input(index);
    if (tensor == nullptr) return Status::OK();
    if (tensor->dtype() != DataTypeOf<T>()) {
      return context.Error("input {} has type {}, expected {}", index,
                           DataTypeName(tensor->dtype()), DataTypeName(DataTypeOf<T>()));
    }
    if (tensor->NumElements() != 1) {
      return context.Error("input {} must be a scalar, got shape {}", index,
                           tensor->shape().ToString());
    }
    *bound = static_cast<ComputeType<T>>(tensor->Data<T>()[0]);
    return Status::OK();
  }

  bool attribute_bounds_ = false;
  float min_ = 0;
  float max_ = 0;
};

}  // namespace

void RegisterClipKernels(KernelRegistry& registry) {
  const auto float_types = FloatTypes::DataTypes();
  registry.Add<Clip>(KernelDef("Clip").Versions(1, 10).Input(0, float_types));
  registry.Add<Clip>(KernelDef("Clip").Versions(11, 11).Input(0, float_types));
  registry.Add<Clip>(KernelDef("Clip").Versions(12).Input(0, NumericTypes::DataTypes()));
}

}  // namespace ort
