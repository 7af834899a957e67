// Mod with numpy broadcasting: fmod=0 takes the sign of the divisor (integers only, like Python's
// %), fmod=1 the sign of the dividend (C fmod).
#include <atomic>
#include <cmath>

#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

class Mod final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t fmod, info.GetAttributeOr<int64_t>("fmod", 0));
    if (fmod != 0 && fmod != 1) {
      return ORT_ERROR(kInvalidModel, "fmod must be 0 or 1, got {}", fmod)
          .WithNode(info.node().Describe());
    }
    fmod_ = fmod == 1;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    return DispatchByType<NumericTypes>(a->dtype(), "Mod",
                                        [&]<typename T>() { return ComputeTyped<T>(context); });
  }

 private:
  template <typename T>
  Status ComputeTyped(KernelContext& context) const {
    using C = ComputeType<T>;
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    if constexpr (std::is_floating_point_v<C>) {
      if (!fmod_) return context.Error("fmod must be 1 for floating-point inputs");
      return BroadcastBinaryTensors<T, T, T>(
          context, *a, *b, [](C x, C y) { return std::fmod(x, y); }, 10.0);
    } else {
      std::atomic<bool> divided_by_zero{false};
      const bool fmod = fmod_;
      Status status = BroadcastBinaryTensors<T, T, T>(context, *a, *b, [&](C x, C y) -> C {
        if (y == 0) {
          divided_by_zero.store(true, std::memory_order_relaxed);
          return 0;
        }
        if constexpr (std::is_signed_v<C>) {
          if (y == -1) return 0;  // INT_MIN % -1 traps on x86
          const C r = static_cast<C>(x % y);
          if (!fmod && r != 0 && ((r < 0) != (y < 0))) return static_cast<C>(r + y);
          return r;
        } else {
          return static_cast<C>(x % y);
        }
      });
      ORT_RETURN_IF_ERROR(status);
      if (divided_by_zero) return context.Error("integer modulo by zero");
      return Status::OK();
    }
  }

  bool fmod_ = false;
};

}  // namespace

void RegisterModKernels(KernelRegistry& registry) {
  registry.Add<Mod>(KernelDef("Mod").Versions(10).Input(0, NumericTypes::DataTypes()));
}

}  // namespace ort
