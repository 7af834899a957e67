#include "providers/cpu/kernels/contrib/math/contrib_math_kernels.h"

#include "providers/cpu/kernels/contrib/contrib_kernels.h"

namespace ort {

void RegisterContribMathKernels(KernelRegistry& registry) {
  RegisterBiasAddKernels(registry);
  RegisterFusedGemmKernels(registry);
  RegisterFusedMatMulKernels(registry);
  RegisterQLinearBinaryKernels(registry);
}

}  // namespace ort
