// Per-op registration functions of the object_detection category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterNonMaxSuppressionKernels(KernelRegistry& registry);

}  // namespace ort
