// Per-op registration functions of the quantization category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterDynamicQuantizeLinearKernels(KernelRegistry& registry);
void RegisterQuantizeLinearKernels(KernelRegistry& registry);

}  // namespace ort
