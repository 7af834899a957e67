// com.microsoft FusedGemm: Gemm followed by an activation (activation, activation_alpha,
// activation_beta, activation_gamma), as ORT's Gemm + activation fusion emits.
#include "providers/cpu/kernels/contrib/math/contrib_math_kernels.h"
#include "providers/cpu/kernels/onnx/math/gemm_kernel.h"

namespace ort {
namespace {

class FusedGemm final : public Gemm {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(Gemm::Init(info));
    ORT_ASSIGN_OR_RETURN(activation_, ParseGemmActivation(info));
    return Status::OK();
  }
};

}  // namespace

void RegisterFusedGemmKernels(KernelRegistry& registry) {
  registry.Add<FusedGemm>(KernelDef("FusedGemm", std::string(kMsDomain))
                              .Versions(1)
                              .Input(0, TypeList<float, double>::DataTypes()));
}

}  // namespace ort
