// Elementwise unary math: Abs, Neg, Sign, Exp, Log, Sqrt, Reciprocal, Floor, Ceil, Round, the
// trigonometric and hyperbolic functions and Erf.
#include <cmath>

#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

using SignedNumericTypes =
    TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t>;

// Negation in unsigned arithmetic: -INT_MIN wraps to INT_MIN instead of being undefined.
template <typename C>
C Negate(C x) {
  if constexpr (std::is_integral_v<C>) {
    return static_cast<C>(WrappingType<C>(0) - WrappingType<C>(x));
  } else {
    return -x;
  }
}

struct AbsOp {
  static constexpr double kCost = 1.0;
  template <typename C>
  C operator()(C x) const {
    if constexpr (std::is_unsigned_v<C>) {
      return x;
    } else if constexpr (std::is_integral_v<C>) {
      return x < 0 ? Negate(x) : x;
    } else {
      return std::abs(x);
    }
  }
};

struct NegOp {
  static constexpr double kCost = 1.0;
  template <typename C>
  C operator()(C x) const {
    return Negate(x);
  }
};

struct SignOp {
  static constexpr double kCost = 1.0;
  template <typename C>
  C operator()(C x) const {
    if constexpr (std::is_unsigned_v<C>) {
      return x > 0 ? C(1) : C(0);
    } else {
      // Zero and NaN map to themselves.
      return x > 0 ? C(1) : (x < 0 ? C(-1) : x);
    }
  }
};

struct ExpOp {
  static constexpr double kCost = 4.0;
  template <typename C>
  C operator()(C x) const {
    if constexpr (std::is_same_v<C, float>) {
      return FastExp(x);
    } else {
      return std::exp(x);
    }
  }
};

struct ErfOp {
  static constexpr double kCost = 8.0;
  template <typename C>
  C operator()(C x) const {
    if constexpr (std::is_same_v<C, float>) {
      return FastErf(x);
    } else if constexpr (std::is_integral_v<C>) {
      return static_cast<C>(std::erf(static_cast<double>(x)));
    } else {
      return std::erf(x);
    }
  }
};

struct ReciprocalOp {
  static constexpr double kCost = 2.0;
  template <typename C>
  C operator()(C x) const {
    return C(1) / x;
  }
};

// Round uses the default rounding mode of nearbyint: half to even, as ONNX requires.
#define ORT_LIBM_UNARY(Name, function, cost) \
  struct Name {                              \
    static constexpr double kCost = cost;    \
    template <typename C>                    \
    C operator()(C x) const {                \
      return function(x);                    \
    }                                        \
  };
ORT_LIBM_UNARY(LogOp, std::log, 20.0)
ORT_LIBM_UNARY(SqrtOp, std::sqrt, 4.0)
ORT_LIBM_UNARY(FloorOp, std::floor, 2.0)
ORT_LIBM_UNARY(CeilOp, std::ceil, 2.0)
ORT_LIBM_UNARY(RoundOp, std::nearbyint, 2.0)
ORT_LIBM_UNARY(SinOp, std::sin, 30.0)
ORT_LIBM_UNARY(CosOp, std::cos, 30.0)
ORT_LIBM_UNARY(TanOp, std::tan, 40.0)
ORT_LIBM_UNARY(AsinOp, std::asin, 30.0)
ORT_LIBM_UNARY(AcosOp, std::acos, 30.0)
ORT_LIBM_UNARY(AtanOp, std::atan, 30.0)
ORT_LIBM_UNARY(SinhOp, std::sinh, 40.0)
ORT_LIBM_UNARY(CoshOp, std::cosh, 40.0)
ORT_LIBM_UNARY(AsinhOp, std::asinh, 40.0)
ORT_LIBM_UNARY(AcoshOp, std::acosh, 40.0)
ORT_LIBM_UNARY(AtanhOp, std::atanh, 40.0)
#undef ORT_LIBM_UNARY

template <typename Op, typename Types>
void Register(KernelRegistry& registry, const char* name, int since) {
  registry.Add<UnaryElementwiseKernel<Op, Types>>(
      KernelDef(name).Versions(since).Input(0, Types::DataTypes()).MayInplace(0, 0));
}

}  // namespace

void RegisterUnaryMathKernels(KernelRegistry& registry) {
  // Opset 1 of Abs .. Ceil also had `consumed_inputs`, an optimization hint that is ignored.
  Register<AbsOp, NumericTypes>(registry, "Abs", 1);
  Register<NegOp, SignedNumericTypes>(registry, "Neg", 1);
  Register<SignOp, NumericTypes>(registry, "Sign", 9);
  Register<ExpOp, FloatTypes>(registry, "Exp", 1);
  Register<LogOp, FloatTypes>(registry, "Log", 1);
  Register<SqrtOp, FloatTypes>(registry, "Sqrt", 1);
  Register<ReciprocalOp, FloatTypes>(registry, "Reciprocal", 1);
  Register<FloorOp, FloatTypes>(registry, "Floor", 1);
  Register<CeilOp, FloatTypes>(registry, "Ceil", 1);
  Register<RoundOp, FloatTypes>(registry, "Round", 11);
  Register<SinOp, FloatTypes>(registry, "Sin", 7);
  Register<CosOp, FloatTypes>(registry, "Cos", 7);
  Register<TanOp, FloatTypes>(registry, "Tan", 7);
  Register<AsinOp, FloatTypes>(registry, "Asin", 7);
  Register<AcosOp, FloatTypes>(registry, "Acos", 7);
  Register<AtanOp, FloatTypes>(registry, "Atan", 7);
  Register<SinhOp, FloatTypes>(registry, "Sinh", 9);
  Register<CoshOp, FloatTypes>(registry, "Cosh", 9);
  Register<AsinhOp, FloatTypes>(registry, "Asinh", 9);
  Register<AcoshOp, FloatTypes>(registry, "Acosh", 9);
  Register<AtanhOp, FloatTypes>(registry, "Atanh", 9);
  Register<ErfOp, NumericTypes>(registry, "Erf", 9);
}

}  // namespace ort
