// Elementwise activations: Relu, LeakyRelu, Elu, Selu, Celu, Sigmoid, HardSigmoid, HardSwish,
// Tanh, Softplus, Softsign, ThresholdedRelu, Shrink, Gelu, Mish and Swish. Float computes through
// the vectorizable FastExp/FastTanh/FastErf; half types compute in float, double through libm.
#include <climits>
#include <cmath>

#include "providers/common/activation/gelu_approximate.h"
#include "providers/cpu/kernels/common/logistic.h"
#include "providers/cpu/kernels/onnx/activation/activation_kernels.h"
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"

namespace ort {
namespace {

using SignedNumericTypes =
    TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t>;

// log(1 + e^x) without overflow for large x.
template <typename C>
C Softplus(C x) {
  return x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// Reads a float attribute with a default.
Status ReadFloat(const KernelInfo& info, const char* name, float fallback, float* value) {
  ORT_ASSIGN_OR_RETURN(*value, info.GetAttributeOr<float>(name, fallback));
  return Status::OK();
}

struct ReluOp {
  static constexpr double kCost = 1.0;
  template <typename C>
  C operator()(C x) const {
    return x < C(0) ? C(0) : x;  // keeps NaN, like numpy.maximum(x, 0)
  }
};

struct LeakyReluOp {
  static constexpr double kCost = 1.0;
  float alpha = 0.01f;
  Status Init(const KernelInfo& info) { return ReadFloat(info, "alpha", 0.01f, &alpha); }
  template <typename C>
  C operator()(C x) const {
    return Select(x < C(0), x * C(alpha), x);
  }
};

struct EluOp {
  static constexpr double kCost = 4.0;
  float alpha = 1.0f;
  Status Init(const KernelInfo& info) { return ReadFloat(info, "alpha", 1.0f, &alpha); }
  template <typename C>
  C operator()(C x) const {
    return Select(x < C(0), C(alpha) * (ActivationExp(x) - C(1)), x);
  }
};

struct SeluOp {
  static constexpr double kCost = 4.0;
  float alpha = 1.67326319217681884765625f;
  float gamma = 1.05070102214813232421875f;
  Status Init(const KernelInfo& info) {
    ORT_RETURN_IF_ERROR(ReadFloat(info, "alpha", alpha, &alpha));
    return ReadFloat(info, "gamma", gamma, &gamma);
  }
  template <typename C>
  C operator()(C x) const {
    return C(gamma) * Select(x <= C(0), C(alpha) * ActivationExp(x) - C(alpha), x);
  }
};

struct CeluOp {
  static constexpr double kCost = 4.0;
  float alpha = 1.0f;
  Status Init(const KernelInfo& info) {
    ORT_RETURN_IF_ERROR(ReadFloat(info, "alpha", 1.0f, &alpha));
    if (alpha == 0.0f) {
      return ORT_ERROR(kInvalidModel, "alpha must not be 0").WithNode(info.node().Describe());
    }
    return Status::OK();
  }
  template <typename C>
  C operator()(C x) const {
    const C a = C(alpha);
    const C negative = a * (ActivationExp(x / a) - C(1));
    return Select(x > C(0), x, Select(negative < C(0), negative, C(0)));
  }
};

struct SigmoidOp {
  static constexpr double kCost = 4.0;
  template <typename C>
  C operator()(C x) const {
    return C(1) / (C(1) + ActivationExp(-x));
  }
  void Floats(const float* in, float* out, int64_t count) const {
    ScaledLogistic(in, out, count, 1.0f, false);
  }
};

// Swish (opset 24): x * sigmoid(alpha * x).
struct SwishOp {
  static constexpr double kCost = 5.0;
  float alpha = 1.0f;
  Status Init(const KernelInfo& info) { return ReadFloat(info, "alpha", 1.0f, &alpha); }
  template <typename C>
  C operator()(C x) const {
    return x / (C(1) + ActivationExp(-C(alpha) * x));
  }
  void Floats(const float* in, float* out, int64_t count) const {
    ScaledLogistic(in, out, count, alpha, true);
  }
};

struct HardSigmoidOp {
  static constexpr double kCost = 1.0;
  float alpha = 0.2f;
  float beta = 0.5f;
  Status Init(const KernelInfo& info) {
    ORT_RETURN_IF_ERROR(ReadFloat(info, "alpha", 0.2f, &alpha));
    return ReadFloat(info, "beta", 0.5f, &beta);
  }
  template <typename C>
  C operator()(C x) const {
    const C v = C(alpha) * x + C(beta);
    const C low = Select(v < C(0), C(0), v);
    return Select(low > C(1), C(1), low);
  }
};

struct HardSwishOp {
  static constexpr double kCost = 1.0;
  template <typename C>
  C operator()(C x) const {
    const C v = x * C(1.0 / 6.0) + C(0.5);
    const C low = Select(v < C(0), C(0), v);
    return x * Select(low > C(1), C(1), low);
  }
};

struct TanhOp {
  static constexpr double kCost = 6.0;
  template <typename C>
  C operator()(C x) const {
    return ActivationTanh(x);
  }
};

struct SoftplusOp {
  static constexpr double kCost = 30.0;
  template <typename C>
  C operator()(C x) const {
    return Softplus(x);
  }
};

struct SoftsignOp {
  static constexpr double kCost = 2.0;
  template <typename C>
  C operator()(C x) const {
    return x / (C(1) + std::abs(x));
  }
};

struct ThresholdedReluOp {
  static constexpr double kCost = 1.0;
  float alpha = 1.0f;
  Status Init(const KernelInfo& info) { return ReadFloat(info, "alpha", 1.0f, &alpha); }
  template <typename C>
  C operator()(C x) const {
    return Select(x > C(alpha), x, C(0));
  }
};

// The experimental opset-1 activations ONNX Runtime still serves: Affine, ScaledTanh,
// ParametricSoftplus and Scale.
struct AffineOp {
  static constexpr double kCost = 1.0;
  float alpha = 1.0f;
  float beta = 0.0f;
  Status Init(const KernelInfo& info) {
    ORT_RETURN_IF_ERROR(ReadFloat(info, "alpha", 1.0f, &alpha));
    return ReadFloat(info, "beta", 0.0f, &beta);
  }
  template <typename C>
  C operator()(C x) const {
    return C(alpha) * x + C(beta);
  }
};

// alpha * f(beta * x) ops whose attributes ONNX Runtime requires.
struct RequiredAlphaBeta {
  float alpha = 1.0f;
  float beta = 1.0f;
  Status Init(const KernelInfo& info) {
    ORT_ASSIGN_OR_RETURN(alpha, info.GetAttribute<float>("alpha"));
    ORT_ASSIGN_OR_RETURN(beta, info.GetAttribute<float>("beta"));
    return Status::OK();
  }
};

struct ScaledTanhOp : RequiredAlphaBeta {
  static constexpr double kCost = 20.0;
  template <typename C>
  C operator()(C x) const {
    return C(alpha) * ActivationTanh(C(beta) * x);
  }
};

struct ParametricSoftplusOp : RequiredAlphaBeta {
  static constexpr double kCost = 20.0;
  template <typename C>
  C operator()(C x) const {
    return C(alpha) * Softplus(C(beta) * x);
  }
};

struct ScaleOp {
  static constexpr double kCost = 1.0;
  float scale = 1.0f;
  Status Init(const KernelInfo& info) { return ReadFloat(info, "scale", 1.0f, &scale); }
  template <typename C>
  C operator()(C x) const {
    return C(scale) * x;
  }
};

struct ShrinkOp {
  static constexpr double kCost = 1.0;
  float bias = 0.0f;
  float lambd = 0.5f;
  Status Init(const KernelInfo& info) {
    ORT_RETURN_IF_ERROR(ReadFloat(info, "bias", 0.0f, &bias));
    return ReadFloat(info, "lambd", 0.5f, &lambd);
  }
  template <typename C>
  C operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>) {
      return Select(x < -C(lambd), x + C(bias), Select(x > C(lambd), x - C(bias), C(0)));
    } else {
      // Integers shift by the float bias in double, then wrap back into C.
      const double v = static_cast<double>(x);
      if (v < -lambd) return DoubleToInteger<C>(v + bias);
      if (v > lambd) return DoubleToInteger<C>(v - bias);
      return C(0);
    }
  }
};

struct GeluErfOp {
  template <typename C>
  C operator()(C x) const {
    const C scaled = x * C(0.7071067811865476);  // 1/sqrt(2)
    if constexpr (std::is_same_v<C, float>) {
      return 0.5f * x * (1.0f + FastErf(scaled));
    } else {
      return C(0.5) * x * (C(1) + std::erf(scaled));
    }
  }
};

struct GeluTanhOp {
  template <typename C>
  C operator()(C x) const {
    const C inner = C(0.7978845608028654) * (x + C(0.044715) * x * x * x);  // sqrt(2/pi)
    return C(0.5) * x * (C(1) + ActivationTanh(inner));
  }
};

// Gelu picks its formula once per node so that each loop stays branch-free.
class Gelu final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(tanh_approximation_, ParseGeluTanhApproximation(info));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    return DispatchByType<FloatTypes>(x->dtype(), "Gelu", [&]<typename T>() {
      if (tanh_approximation_) return ComputeUnary<T, T>(context, GeluTanhOp{}, 10.0);
      return ComputeUnary<T, T>(context, GeluErfOp{}, 8.0);
    });
  }

 private:
  bool tanh_approximation_ = false;
};

struct MishOp {
  static constexpr double kCost = 40.0;
  template <typename C>
  C operator()(C x) const {
    return x * ActivationTanh(Softplus(x));
  }
};

template <typename Op, typename Types = FloatTypes>
void Register(KernelRegistry& registry, const char* name, int since, int until = INT_MAX) {
  registry.Add<UnaryElementwiseKernel<Op, Types>>(
      KernelDef(name).Versions(since, until).Input(0, Types::DataTypes()).MayInplace(0, 0));
}

}  // namespace

void RegisterActivationFunctionKernels(KernelRegistry& registry) {
  // Opset 1 versions also had `consumed_inputs`, an optimization hint that is ignored.
  Register<ReluOp>(registry, "Relu", 1, 13);
  Register<ReluOp, SignedNumericTypes>(registry, "Relu", 14);
  Register<LeakyReluOp>(registry, "LeakyRelu", 1);
  Register<EluOp>(registry, "Elu", 1);
  Register<SeluOp>(registry, "Selu", 1);
  Register<CeluOp>(registry, "Celu", 12);
  Register<SigmoidOp>(registry, "Sigmoid", 1);
  Register<HardSigmoidOp>(registry, "HardSigmoid", 1);
  Register<HardSwishOp>(registry, "HardSwish", 14);
  Register<TanhOp>(registry, "Tanh", 1);
  Register<SoftplusOp>(registry, "Softplus", 1);
  Register<SoftsignOp>(registry, "Softsign", 1);
  // Opsets 1-9 had ThresholdedRelu as an experimental op with the same meaning.
  Register<ThresholdedReluOp>(registry, "ThresholdedRelu", 1);
  Register<ShrinkOp, NumericTypes>(registry, "Shrink", 9);
  registry.Add<Gelu>(KernelDef("Gelu").Versions(20).Input(0, FloatTypes::DataTypes()));
  Register<MishOp>(registry, "Mish", 18);
  Register<SwishOp>(registry, "Swish", 24);
  Register<AffineOp>(registry, "Affine", 1);
  Register<ScaledTanhOp>(registry, "ScaledTanh", 1);
  Register<ParametricSoftplusOp>(registry, "ParametricSoftplus", 1);
  Register<ScaleOp>(registry, "Scale", 1);
}

}  // namespace ort
