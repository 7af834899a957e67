#include "providers/cpu/kernels/contrib/nn/contrib_nn_kernels.h"

#include "providers/cpu/kernels/contrib/contrib_kernels.h"

namespace ort {

void RegisterContribNnKernels(KernelRegistry& registry) {
  RegisterFusedConvKernels(registry);
  RegisterSkipLayerNormalizationKernels(registry);
  RegisterGroupNormKernels(registry);
  RegisterNhwcMaxPoolKernels(registry);
}

}  // namespace ort
