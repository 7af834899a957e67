// Add, Sub, Mul, Div with numpy broadcasting (opset 7+; opsets 1-6 with the legacy
// broadcast/axis attributes).
#include <atomic>
#include <limits>

#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

enum class ArithmeticOp { kAdd, kSub, kMul, kDiv };

template <ArithmeticOp kOp>
class BinaryArithmetic final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return legacy_.Init(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    return DispatchByType<NumericTypes>(a->dtype(), context.node().op_type(),
                                        [&]<typename T>() { return ComputeTyped<T>(context); });
  }

 private:
  template <typename T>
  Status ComputeTyped(KernelContext& context) const {
    using C = ComputeType<T>;
    if constexpr (std::is_integral_v<C> && kOp != ArithmeticOp::kDiv) {
      using W = WrappingType<C>;
      return ComputeBinary<T, T, T>(context, legacy_, [](C x, C y) {
        if constexpr (kOp == ArithmeticOp::kAdd) return static_cast<C>(W(x) + W(y));
        if constexpr (kOp == ArithmeticOp::kSub) return static_cast<C>(W(x) - W(y));
        return static_cast<C>(W(x) * W(y));
      });
    } else if constexpr (kOp == ArithmeticOp::kAdd) {
      return ComputeBinary<T, T, T>(context, legacy_, [](C x, C y) { return x + y; });
    } else if constexpr (kOp == ArithmeticOp::kSub) {
      return ComputeBinary<T, T, T>(context, legacy_, [](C x, C y) { return x - y; });
    } else if constexpr (kOp == ArithmeticOp::kMul) {
      return ComputeBinary<T, T, T>(context, legacy_, [](C x, C y) { return x * y; });
    } else if constexpr (std::is_integral_v<C>) {
      std::atomic<bool> divided_by_zero{false};
      Status status = ComputeBinary<T, T, T>(context, legacy_, [&](C x, C y) -> C {
        if (y == 0) {
          divided_by_zero.store(true, std::memory_order_relaxed);
          return 0;
        }
        // INT_MIN / -1 overflows (and traps on x86); wrap like two's complement hardware would.
        if constexpr (std::is_signed_v<C>) {
          if (y == -1) return static_cast<C>(0 - static_cast<std::make_unsigned_t<C>>(x));
        }
        return static_cast<C>(x / y);
      });
      ORT_RETURN_IF_ERROR(status);
      if (divided_by_zero) return context.Error("integer division by zero");
      return Status::OK();
    } else {
      return ComputeBinary<T, T, T>(
          context, legacy_, [](C x, C y) { return x / y; }, 4.0);
    }
  }

  LegacyBroadcast legacy_;
};

template <ArithmeticOp kOp>
void Register(KernelRegistry& registry, const char* name) {
  // Opsets 1-6 allowed fewer types; serving more of them there does no harm.
  // Each output element reads only the input elements at its own position (or broadcast ones,
  // which are smaller and so never reused), so the output may take over either input.
  registry.Add<BinaryArithmetic<kOp>>(KernelDef(name)
                                          .Versions(1, 6)
                                          .Input(0, NumericTypes::DataTypes())
                                          .MayInplace(0, 0)
                                          .MayInplace(1, 0));
  registry.Add<BinaryArithmetic<kOp>>(KernelDef(name)
                                          .Versions(7)
                                          .Input(0, NumericTypes::DataTypes())
                                          .MayInplace(0, 0)
                                          .MayInplace(1, 0));
}

}  // namespace

void RegisterBinaryArithmeticKernels(KernelRegistry& registry) {
  Register<ArithmeticOp::kAdd>(registry, "Add");
  Register<ArithmeticOp::kSub>(registry, "Sub");
  Register<ArithmeticOp::kMul>(registry, "Mul");
  Register<ArithmeticOp::kDiv>(registry, "Div");
}

}  // namespace ort
