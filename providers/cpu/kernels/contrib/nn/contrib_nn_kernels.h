// Per-op registration functions of the contrib nn category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterFusedConvKernels(KernelRegistry& registry);
void RegisterSkipLayerNormalizationKernels(KernelRegistry& registry);
void RegisterGroupNormKernels(KernelRegistry& registry);
void RegisterNhwcMaxPoolKernels(KernelRegistry& registry);

}  // namespace ort
