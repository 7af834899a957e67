// Per-op registration functions of the signal category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterDftKernels(KernelRegistry& registry);
void RegisterMelWeightMatrixKernels(KernelRegistry& registry);
void RegisterStftKernels(KernelRegistry& registry);
void RegisterWindowKernels(KernelRegistry& registry);

}  // namespace ort
