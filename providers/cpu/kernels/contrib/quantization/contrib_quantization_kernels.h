// Per-op registration functions of the contrib quantization category: the com.microsoft 8-bit
// ops of quantized models that are neither arithmetic nor convolutions.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterQLinearConcatKernels(KernelRegistry& registry);
void RegisterQLinearGlobalAveragePoolKernels(KernelRegistry& registry);
void RegisterQGemmKernels(KernelRegistry& registry);
void RegisterQLinearLookupKernels(KernelRegistry& registry);
void RegisterDynamicQuantizeMatMulKernels(KernelRegistry& registry);
void RegisterMatMulIntegerToFloatKernels(KernelRegistry& registry);
void RegisterQLinearSoftmaxKernels(KernelRegistry& registry);
void RegisterQLinearAveragePoolKernels(KernelRegistry& registry);
void RegisterQAttentionKernels(KernelRegistry& registry);
void RegisterDynamicQuantizeLstmKernels(KernelRegistry& registry);

}  // namespace ort
