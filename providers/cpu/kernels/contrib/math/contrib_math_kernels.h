// Per-op registration functions of the contrib math category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterBiasAddKernels(KernelRegistry& registry);
void RegisterFusedGemmKernels(KernelRegistry& registry);
void RegisterFusedMatMulKernels(KernelRegistry& registry);
void RegisterQLinearBinaryKernels(KernelRegistry& registry);

}  // namespace ort
