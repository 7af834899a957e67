// Per-op registration functions of the math category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterBinaryArithmeticKernels(KernelRegistry& registry);

}  // namespace ort
