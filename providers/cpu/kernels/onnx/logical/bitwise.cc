// BitwiseAnd, BitwiseOr, BitwiseXor (numpy broadcasting) and BitwiseNot on integer tensors.
#include "providers/cpu/kernels/onnx/logical/logical_kernels.h"
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"

namespace ort {
namespace {

using IntegerTypes =
    TypeList<int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t>;

enum class BitwiseOp { kAnd, kOr, kXor };

template <BitwiseOp kOp>
class Bitwise final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    if (a->dtype() != b->dtype()) {
      return context.Error("inputs have different types {} and {}", DataTypeName(a->dtype()),
                           DataTypeName(b->dtype()));
    }
    return DispatchByType<IntegerTypes>(a->dtype(), context.node().op_type(), [&]<typename T>() {
      return BroadcastBinaryTensors<T, T, T>(context, *a, *b, [](T x, T y) {
        if constexpr (kOp == BitwiseOp::kAnd) return static_cast<T>(x & y);
        if constexpr (kOp == BitwiseOp::kOr) return static_cast<T>(x | y);
        return static_cast<T>(x ^ y);
      });
    });
  }
};

class BitwiseNot final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    return DispatchByType<IntegerTypes>(x->dtype(), "BitwiseNot", [&]<typename T>() {
      return ComputeUnary<T, T>(context, [](T v) { return static_cast<T>(~v); });
    });
  }
};

}  // namespace

void RegisterBitwiseKernels(KernelRegistry& registry) {
  const auto types = IntegerTypes::DataTypes();
  registry.Add<Bitwise<BitwiseOp::kAnd>>(KernelDef("BitwiseAnd").Versions(18).Input(0, types));
  registry.Add<Bitwise<BitwiseOp::kOr>>(KernelDef("BitwiseOr").Versions(18).Input(0, types));
  registry.Add<Bitwise<BitwiseOp::kXor>>(KernelDef("BitwiseXor").Versions(18).Input(0, types));
  registry.Add<BitwiseNot>(KernelDef("BitwiseNot").Versions(18).Input(0, types));
}

}  // namespace ort
