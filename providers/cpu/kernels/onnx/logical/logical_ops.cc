// And, Or, Xor (numpy broadcasting; the legacy broadcast/axis attributes before opset 7) and Not.
#include "providers/cpu/kernels/onnx/logical/logical_kernels.h"
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"

namespace ort {
namespace {

enum class LogicalOp { kAnd, kOr, kXor };

template <LogicalOp kOp>
class Logical final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return legacy_.Init(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    if (a->dtype() != DataType::kBool || b->dtype() != DataType::kBool) {
      return context.Error("inputs must be bool, got {} and {}", DataTypeName(a->dtype()),
                           DataTypeName(b->dtype()));
    }
    return ComputeBinary<bool, bool, bool>(context, legacy_, [](bool x, bool y) {
      if constexpr (kOp == LogicalOp::kAnd) return x && y;
      if constexpr (kOp == LogicalOp::kOr) return x || y;
      return x != y;
    });
  }

 private:
  LegacyBroadcast legacy_;
};

class Not final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    if (x->dtype() != DataType::kBool) {
      return context.Error("input must be bool, got {}", DataTypeName(x->dtype()));
    }
    return ComputeUnary<bool, bool>(context, [](bool v) { return !v; });
  }
};

template <LogicalOp kOp>
void Register(KernelRegistry& registry, const char* name) {
  const std::vector<DataType> types = {DataType::kBool};
  registry.Add<Logical<kOp>>(KernelDef(name).Versions(1, 6).Input(0, types));
  registry.Add<Logical<kOp>>(KernelDef(name).Versions(7).Input(0, types));
}

}  // namespace

void RegisterLogicalOpKernels(KernelRegistry& registry) {
  Register<LogicalOp::kAnd>(registry, "And");
  Register<LogicalOp::kOr>(registry, "Or");
  Register<LogicalOp::kXor>(registry, "Xor");
  registry.Add<Not>(KernelDef("Not").Versions(1).Input(0, {DataType::kBool}));
}

}  // namespace ort
