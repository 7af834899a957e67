// Per-op registration functions of the controlflow category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterIfKernels(KernelRegistry& registry);
void RegisterLoopKernels(KernelRegistry& registry);
void RegisterScanKernels(KernelRegistry& registry);

}  // namespace ort
