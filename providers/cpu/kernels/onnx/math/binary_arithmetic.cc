// Add, Sub, Mul, Div with numpy broadcasting (opset 7+; opsets 1-6 with the legacy
// broadcast/axis attributes).
#include <atomic>
#include <limits>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

enum class ArithmeticOp { kAdd, kSub, kMul, kDiv };

template <ArithmeticOp kOp>
class BinaryArithmetic final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    return DispatchByType<NumericTypes>(a->dtype(), context.node().op_type(),
                                        [&]<typename T>() { return ComputeTyped<T>(context); });
  }

 private:
  template <typename T>
  static Status ComputeTyped(KernelContext& context) {
    using C = ComputeType<T>;
    if constexpr (kOp == ArithmeticOp::kAdd) {
      return ComputeBroadcastBinary<T, T>(context, [](C x, C y) { return x + y; });
    } else if constexpr (kOp == ArithmeticOp::kSub) {
      return ComputeBroadcastBinary<T, T>(context, [](C x, C y) { return x - y; });
    } else if constexpr (kOp == ArithmeticOp::kMul) {
      return ComputeBroadcastBinary<T, T>(context, [](C x, C y) { return x * y; });
    } else if constexpr (std::is_integral_v<C>) {
      std::atomic<bool> divided_by_zero{false};
      Status status = ComputeBroadcastBinary<T, T>(context, [&](C x, C y) -> C {
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
      return ComputeBroadcastBinary<T, T>(context, [](C x, C y) { return x / y; });
    }
  }
};

}  // namespace

void RegisterBinaryArithmeticKernels(KernelRegistry& registry) {
  const auto types = NumericTypes::DataTypes();
  registry.Add<BinaryArithmetic<ArithmeticOp::kAdd>>(KernelDef("Add").Versions(7).Input(0, types));
  registry.Add<BinaryArithmetic<ArithmeticOp::kSub>>(KernelDef("Sub").Versions(7).Input(0, types));
  registry.Add<BinaryArithmetic<ArithmeticOp::kMul>>(KernelDef("Mul").Versions(7).Input(0, types));
  registry.Add<BinaryArithmetic<ArithmeticOp::kDiv>>(KernelDef("Div").Versions(7).Input(0, types));
}

}  // namespace ort
