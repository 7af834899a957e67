// Per-op registration functions of the math category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterBinaryArithmeticKernels(KernelRegistry& registry);
void RegisterBitShiftKernels(KernelRegistry& registry);
void RegisterCastKernels(KernelRegistry& registry);
void RegisterClipKernels(KernelRegistry& registry);
void RegisterCumulativeKernels(KernelRegistry& registry);
void RegisterDetKernels(KernelRegistry& registry);
void RegisterEinsumKernels(KernelRegistry& registry);
void RegisterGemmKernels(KernelRegistry& registry);
void RegisterIsNaNInfKernels(KernelRegistry& registry);
void RegisterMatMulIntegerKernels(KernelRegistry& registry);
void RegisterMatMulKernels(KernelRegistry& registry);
void RegisterModKernels(KernelRegistry& registry);
void RegisterPowKernels(KernelRegistry& registry);
void RegisterSoftmaxKernels(KernelRegistry& registry);
void RegisterUnaryMathKernels(KernelRegistry& registry);
void RegisterVariadicKernels(KernelRegistry& registry);

}  // namespace ort
