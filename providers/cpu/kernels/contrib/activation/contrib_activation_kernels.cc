#include "providers/cpu/kernels/contrib/activation/contrib_activation_kernels.h"

#include "providers/cpu/kernels/contrib/contrib_kernels.h"

namespace ort {

void RegisterContribActivationKernels(KernelRegistry& registry) { RegisterGeluKernels(registry); }

}  // namespace ort
