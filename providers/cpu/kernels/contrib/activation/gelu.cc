// ORT's GELU family (com.microsoft): Gelu (erf form), FastGelu (tanh approximation with an
// optional bias), BiasGelu (erf form of A + B) and QuickGelu (x * sigmoid(alpha * x)). Biases are
// 1-D over the last axis. Float computes through the vectorizable FastErf/FastTanh/FastExp; half
// types compute in float, double through libm.
#include <cmath>

#include "providers/cpu/kernels/common/logistic.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/activation/contrib_activation_kernels.h"
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"

namespace ort {
namespace {

struct GeluErfOp {
  static constexpr double kCost = 8.0;
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
  static constexpr double kCost = 10.0;
  template <typename C>
  C operator()(C x) const {
    // sqrt(2/pi) * (x + 0.044715 x^3), with the products folded the way ORT writes them.
    const C inner = x * (C(0.035677408136300125) * x * x + C(0.7978845608028654));
    if constexpr (std::is_same_v<C, float>) {
      return 0.5f * x * (1.0f + FastTanh(inner));
    } else {
      return C(0.5) * x * (C(1) + std::tanh(inner));
    }
  }
};

struct QuickGeluOp {
  static constexpr double kCost = 6.0;
  float alpha = 1.702f;
  Status Init(const KernelInfo& info) {
    ORT_ASSIGN_OR_RETURN(alpha, info.GetAttributeOr<float>("alpha", 1.702f));
    return Status::OK();
  }
  template <typename C>
  C operator()(C x) const {
    const C scaled = C(alpha) * x;
    if constexpr (std::is_same_v<C, float>) {
      return x / (1.0f + FastExp(-scaled));
    } else {
      return x / (C(1) + std::exp(-scaled));
    }
  }
  void Floats(const float* in, float* out, int64_t count) const {
    ScaledLogistic(in, out, count, alpha, true);
  }
};

/// Y = Op(X + bias) with bias (input 1) broadcast over X's last axis; without bias (allowed when
/// `kBiasRequired` is false) Y = Op(X).
template <typename Op, bool kBiasRequired>
class BiasActivation final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const Tensor* bias = context.Input(1);
    if (bias == nullptr && kBiasRequired) {
      ORT_RETURN_IF_ERROR(context.RequiredInput(1).status());
    }
    const TensorShape& shape = x->shape();
    const int64_t width = shape.rank() == 0 ? 1 : shape[shape.rank() - 1];
    if (bias != nullptr) {
      if (shape.rank() == 0 || bias->shape() != TensorShape{width}) {
        return context.Error("bias {} must be 1-D with the last dimension of X {}",
                             bias->shape().ToString(), shape.ToString());
      }
      if (bias->dtype() != x->dtype()) return context.Error("X and bias types differ");
    }
    return DispatchByType<FloatTypes>(x->dtype(), context.node().op_type(), [&]<typename T>() {
      if (bias == nullptr) return ComputeUnary<T, T>(context, Op{}, Op::kCost);
      ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), shape));
      using C = ComputeType<T>;
      const T* in = x->Data<T>();
      const T* b = bias->Data<T>();
      T* out = y->MutableData<T>();
      const int64_t rows = width == 0 ? 0 : x->NumElements() / width;
      VectorizedParallelFor(context.thread_pool(), rows,
                            (Op::kCost + 1.0) * static_cast<double>(width),
                            [&](int64_t begin, int64_t end) {
                              const Op op;
                              for (int64_t row = begin; row < end; ++row) {
                                const T* src = in + row * width;
                                T* dst = out + row * width;
                                for (int64_t i = 0; i < width; ++i) {
                                  dst[i] = static_cast<T>(op(C(src[i]) + C(b[i])));
                                }
                              }
                            });
      return Status::OK();
    });
  }
};

KernelDef MsDef(const char* name) {
  return KernelDef(name, std::string(kMsDomain))
      .Versions(1)
      .Input(0, FloatTypes::DataTypes())
      .MayInplace(0, 0);
}

}  // namespace

void RegisterGeluKernels(KernelRegistry& registry) {
  registry.Add<UnaryElementwiseKernel<GeluErfOp, FloatTypes>>(MsDef("Gelu"));
  registry.Add<UnaryElementwiseKernel<QuickGeluOp, FloatTypes>>(MsDef("QuickGelu"));
  registry.Add<BiasActivation<GeluTanhOp, false>>(MsDef("FastGelu"));
  registry.Add<BiasActivation<GeluErfOp, true>>(MsDef("BiasGelu"));
}

}  // namespace ort
