// Per-op registration functions of the contrib activation category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterGeluKernels(KernelRegistry& registry);

}  // namespace ort
