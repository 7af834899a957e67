// com.microsoft FusedConv: Conv with an optional fourth input Z added to the output and an
// activation (activation, activation_params) applied to the sum, as ORT's Conv + Add + activation
// fusion emits. Runs the Conv kernel with its epilogue enabled.
#include "providers/cpu/kernels/contrib/nn/contrib_nn_kernels.h"
#include "providers/cpu/kernels/onnx/nn/conv.h"

namespace ort {
namespace {

class FusedConv final : public Conv {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(Conv::Init(info));
    ORT_ASSIGN_OR_RETURN(activation_, ParseConvActivation(info));
    sum_input_ = true;
    return Status::OK();
  }
};

}  // namespace

void RegisterFusedConvKernels(KernelRegistry& registry) {
  // Y may take Z's buffer: each block of Z is loaded into Y before anything writes that block.
  // When Z is the very value X is, X is still read after Y is written; the planner then keeps
  // them apart, since input 0 is not declared.
  registry.Add<FusedConv>(KernelDef("FusedConv", std::string(kMsDomain))
                              .Versions(1)
                              .Input(0, FloatTypes::DataTypes())
                              .MayInplace(3, 0));
}

}  // namespace ort
