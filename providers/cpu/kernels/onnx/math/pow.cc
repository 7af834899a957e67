// Pow with numpy broadcasting; from opset 12 the exponent may have another element type than the
// base (the output has the base's type).
#include <cmath>

#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

using BaseTypes = TypeList<float, double, Float16, BFloat16, int32_t, int64_t>;

// Integer power by squaring, wrapping on overflow. A negative exponent truncates 1 / x^-e
// towards zero; 0 to a negative power (a division by zero) gives 0.
template <typename I, typename E>
I IntegerPower(I base, E exponent) {
  using U = std::make_unsigned_t<I>;
  if constexpr (std::is_signed_v<E>) {
    if (exponent < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exponent % 2 == 0) ? 1 : -1;
      return 0;
    }
  }
  U result = 1;
  U factor = static_cast<U>(base);
  auto remaining = static_cast<uint64_t>(exponent);
  while (remaining != 0) {
    if (remaining & 1) result *= factor;
    factor *= factor;
    remaining >>= 1;
  }
  return static_cast<I>(result);
}

template <typename B, typename E>
B PowValue(B base, E exponent) {
  if constexpr (std::is_integral_v<B> && std::is_integral_v<E>) {
    return IntegerPower(base, exponent);
  } else if constexpr (std::is_integral_v<B>) {
    return DoubleToInteger<B>(std::pow(static_cast<double>(base), static_cast<double>(exponent)));
  } else if constexpr (std::is_same_v<B, float> && std::is_same_v<E, float>) {
    return std::pow(base, exponent);
  } else {
    return static_cast<B>(std::pow(static_cast<double>(base), static_cast<double>(exponent)));
  }
}

class Pow final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return legacy_.Init(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* y, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(TensorShape y_shape, legacy_.ShapeOfB(context, x->shape(), y->shape()));
    ORT_ASSIGN_OR_RETURN(const Tensor exponent, y->Reshaped(std::move(y_shape)));
    return DispatchByType<BaseTypes>(x->dtype(), "Pow", [&]<typename T>() {
      return DispatchByType<NumericTypes>(y->dtype(), "Pow exponent", [&]<typename E>() {
        return ComputeTyped<T, E>(context, *x, exponent);
      });
    });
  }

 private:
  template <typename T, typename E>
  static Status ComputeTyped(KernelContext& context, const Tensor& x, const Tensor& y) {
    using C = ComputeType<T>;
    using CE = ComputeType<E>;
    if constexpr (std::is_floating_point_v<C>) {
      // Squares (variance in decomposed normalizations) and cubes (the tanh GELU of GPT-2 and
      // other exports) are products, as onnxruntime computes them: pow costs ten times more.
      if (y.NumElements() == 1 && y.shape().rank() <= x.shape().rank()) {
        const auto exponent = static_cast<double>(static_cast<CE>(y.Data<E>()[0]));
        if (exponent == 2.0) return ComputeUnary<T, T>(context, [](C v) { return v * v; });
        if (exponent == 3.0) return ComputeUnary<T, T>(context, [](C v) { return v * v * v; });
      }
    }
    return BroadcastBinaryTensors<T, E, T>(
        context, x, y, [](C base, CE exponent) { return PowValue(base, exponent); }, 20.0);
  }

  LegacyBroadcast legacy_;
};

}  // namespace

void RegisterPowKernels(KernelRegistry& registry) {
  // Opsets 1-6 take the legacy broadcast/axis attributes.
  registry.Add<Pow>(KernelDef("Pow").Versions(1, 6).Input(0, FloatTypes::DataTypes()));
  registry.Add<Pow>(KernelDef("Pow").Versions(7, 11).Input(0, FloatTypes::DataTypes()));
  registry.Add<Pow>(KernelDef("Pow")
                        .Versions(12)
                        .Input(0, BaseTypes::DataTypes())
                        .Input(1, NumericTypes::DataTypes()));
}

}  // namespace ort
