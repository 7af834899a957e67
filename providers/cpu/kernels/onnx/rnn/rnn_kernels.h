// Per-op registration functions of the rnn category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterGruKernels(KernelRegistry& registry);
void RegisterLstmKernels(KernelRegistry& registry);
void RegisterSimpleRnnKernels(KernelRegistry& registry);

}  // namespace ort
