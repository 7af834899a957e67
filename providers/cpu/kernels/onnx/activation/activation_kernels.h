// Per-op registration functions of the activation category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterActivationFunctionKernels(KernelRegistry& registry);
void RegisterPReluKernels(KernelRegistry& registry);

}  // namespace ort
