// Registration of the CPU kernels of ONNX Runtime's contrib ops (com.microsoft, plus the few ORT
// defines in the ai.onnx domain), one call per category folder.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterContribActivationKernels(KernelRegistry& registry);
void RegisterContribBertKernels(KernelRegistry& registry);
void RegisterContribMathKernels(KernelRegistry& registry);
void RegisterContribNnKernels(KernelRegistry& registry);
void RegisterContribNchwcKernels(KernelRegistry& registry);
void RegisterContribQuantizationKernels(KernelRegistry& registry);

/// Every contrib kernel.
inline void RegisterContribKernels(KernelRegistry& registry) {
  RegisterContribActivationKernels(registry);
  RegisterContribBertKernels(registry);
  RegisterContribMathKernels(registry);
  RegisterContribNnKernels(registry);
  RegisterContribNchwcKernels(registry);
  RegisterContribQuantizationKernels(registry);
}

}  // namespace ort
