#include "providers/cpu/kernels/contrib/contrib_kernels.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_kernels.h"

namespace ort {

void RegisterContribNchwcKernels(KernelRegistry& registry) {
  RegisterNchwcReorderKernels(registry);
  RegisterNchwcConvKernels(registry);
  RegisterNchwcPoolKernels(registry);
  RegisterNchwcUpsampleKernels(registry);
}

}  // namespace ort
