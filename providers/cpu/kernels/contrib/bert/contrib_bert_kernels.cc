#include "providers/cpu/kernels/contrib/bert/contrib_bert_kernels.h"

#include "providers/cpu/kernels/contrib/contrib_kernels.h"

namespace ort {

void RegisterContribBertKernels(KernelRegistry& registry) {
  RegisterAttentionKernels(registry);
  RegisterEmbedLayerNormalizationKernels(registry);
  RegisterMultiHeadAttentionKernels(registry);
  RegisterContribRotaryEmbeddingKernels(registry);
}

}  // namespace ort
