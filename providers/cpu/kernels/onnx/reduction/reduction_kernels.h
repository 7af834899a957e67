// Per-op registration functions of the reduction category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterArgMinMaxKernels(KernelRegistry& registry);
void RegisterReduceKernels(KernelRegistry& registry);

}  // namespace ort
