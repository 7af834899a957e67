// Per-op registration functions of the com.microsoft BERT kernels (Attention,
// EmbedLayerNormalization); RegisterContribBertKernels (contrib_kernels.h) calls them all.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterAttentionKernels(KernelRegistry& registry);
void RegisterEmbedLayerNormalizationKernels(KernelRegistry& registry);

}  // namespace ort
