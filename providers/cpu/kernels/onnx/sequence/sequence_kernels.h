// Per-op registration functions of the sequence category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterConcatFromSequenceKernels(KernelRegistry& registry);
void RegisterOptionalKernels(KernelRegistry& registry);
void RegisterSequenceMapKernels(KernelRegistry& registry);
void RegisterSequenceOpKernels(KernelRegistry& registry);
void RegisterSplitToSequenceKernels(KernelRegistry& registry);

}  // namespace ort
