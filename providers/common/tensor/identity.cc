// Identity: the output is the input value itself (a tensor view, a sequence or an optional's
// none); nothing is copied.
#include "providers/common/tensor/view_kernels.h"

namespace ort {
namespace {

class Identity final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    const Value* input = context.InputValue(0);
    if (input == nullptr) return context.Error("required input 0 is missing");
    return context.SetOutput(0, *input);
  }
};

}  // namespace

void RegisterIdentityKernels(KernelRegistry& registry, const std::vector<DataType>& types) {
  registry.Add<Identity>(KernelDef("Identity").Versions(1).Input(0, types).Alias(0, 0));
}

}  // namespace ort
