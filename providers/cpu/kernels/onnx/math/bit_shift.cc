// BitShift of unsigned integers with numpy broadcasting; shifting by the bit width or more gives 0.
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

class BitShift final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const std::string direction, info.GetAttribute<std::string>("direction"));
    if (direction != "LEFT" && direction != "RIGHT") {
      return ORT_ERROR(kInvalidModel, "direction must be LEFT or RIGHT, got '{}'", direction)
          .WithNode(info.node().Describe());
    }
    left_ = direction == "LEFT";
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* y, context.RequiredInput(1));
    return DispatchByType<UnsignedIntTypes>(x->dtype(), "BitShift", [&]<typename T>() {
      if (y->dtype() != x->dtype()) return context.Error("both inputs must have the same type");
      constexpr T kBits = sizeof(T) * 8;
      if (left_) {
        return BroadcastBinaryTensors<T, T, T>(
            context, *x, *y, [](T v, T s) { return s >= kBits ? T(0) : static_cast<T>(v << s); });
      }
      return BroadcastBinaryTensors<T, T, T>(
          context, *x, *y, [](T v, T s) { return s >= kBits ? T(0) : static_cast<T>(v >> s); });
    });
  }

 private:
  bool left_ = true;
};

}  // namespace

void RegisterBitShiftKernels(KernelRegistry& registry) {
  registry.Add<BitShift>(
      KernelDef("BitShift").Versions(11).Input(0, UnsignedIntTypes::DataTypes()));
}

}  // namespace ort
