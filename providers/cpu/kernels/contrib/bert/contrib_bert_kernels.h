// Per-op registration functions of the com.microsoft BERT and decoder kernels (Attention,
// EmbedLayerNormalization, MultiHeadAttention, RotaryEmbedding); RegisterContribBertKernels
// (contrib_kernels.h) calls them all.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterAttentionKernels(KernelRegistry& registry);
void RegisterEmbedLayerNormalizationKernels(KernelRegistry& registry);
void RegisterMultiHeadAttentionKernels(KernelRegistry& registry);
void RegisterContribRotaryEmbeddingKernels(KernelRegistry& registry);

}  // namespace ort
