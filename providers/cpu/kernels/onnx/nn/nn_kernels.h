// Per-op registration functions of the nn category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterBatchNormalizationKernels(KernelRegistry& registry);
void RegisterCol2ImKernels(KernelRegistry& registry);
void RegisterImageScalerKernels(KernelRegistry& registry);
void RegisterRotaryEmbeddingKernels(KernelRegistry& registry);
void RegisterOnnxAttentionKernels(KernelRegistry& registry);
void RegisterConvIntegerKernels(KernelRegistry& registry);
void RegisterQLinearConvKernels(KernelRegistry& registry);
void RegisterConvKernels(KernelRegistry& registry);
void RegisterConvTransposeKernels(KernelRegistry& registry);
void RegisterDropoutKernels(KernelRegistry& registry);
void RegisterGlobalPoolKernels(KernelRegistry& registry);
void RegisterGroupNormalizationKernels(KernelRegistry& registry);
void RegisterInstanceNormalizationKernels(KernelRegistry& registry);
void RegisterLayerNormalizationKernels(KernelRegistry& registry);
void RegisterLpNormalizationKernels(KernelRegistry& registry);
void RegisterLrnKernels(KernelRegistry& registry);
void RegisterMaxRoiPoolKernels(KernelRegistry& registry);
void RegisterMaxUnpoolKernels(KernelRegistry& registry);
void RegisterMeanVarianceNormalizationKernels(KernelRegistry& registry);
void RegisterPoolKernels(KernelRegistry& registry);
void RegisterRoiAlignKernels(KernelRegistry& registry);
void RegisterStringNormalizerKernels(KernelRegistry& registry);
void RegisterTfIdfVectorizerKernels(KernelRegistry& registry);

}  // namespace ort
