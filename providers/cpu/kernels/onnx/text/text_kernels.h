// Per-op registration functions of the text category (string ops of opset 20).
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterStringConcatKernels(KernelRegistry& registry);
void RegisterStringSplitKernels(KernelRegistry& registry);
void RegisterRegexFullMatchKernels(KernelRegistry& registry);

}  // namespace ort
