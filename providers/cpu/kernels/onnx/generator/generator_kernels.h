// Per-op registration functions of the generator category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterConstantKernels(KernelRegistry& registry);
void RegisterEyeLikeKernels(KernelRegistry& registry);
void RegisterRandomKernels(KernelRegistry& registry);
void RegisterRangeKernels(KernelRegistry& registry);

}  // namespace ort
