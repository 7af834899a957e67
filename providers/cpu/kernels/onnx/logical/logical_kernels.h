// Per-op registration functions of the logical category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterBitwiseKernels(KernelRegistry& registry);
void RegisterComparisonKernels(KernelRegistry& registry);
void RegisterLogicalOpKernels(KernelRegistry& registry);
void RegisterWhereKernels(KernelRegistry& registry);

}  // namespace ort
