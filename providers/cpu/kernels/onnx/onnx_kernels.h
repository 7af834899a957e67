// Registration of the CPU kernels of the ai.onnx domain, one call per category folder.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterActivationKernels(KernelRegistry& registry);
void RegisterControlFlowKernels(KernelRegistry& registry);
void RegisterGeneratorKernels(KernelRegistry& registry);
void RegisterLogicalKernels(KernelRegistry& registry);
void RegisterMathKernels(KernelRegistry& registry);
void RegisterNnKernels(KernelRegistry& registry);
void RegisterObjectDetectionKernels(KernelRegistry& registry);
void RegisterQuantizationKernels(KernelRegistry& registry);
void RegisterReductionKernels(KernelRegistry& registry);
void RegisterRnnKernels(KernelRegistry& registry);
void RegisterSequenceKernels(KernelRegistry& registry);
void RegisterSignalKernels(KernelRegistry& registry);
void RegisterTensorKernels(KernelRegistry& registry);
void RegisterTextKernels(KernelRegistry& registry);

/// Every ai.onnx kernel.
inline void RegisterOnnxKernels(KernelRegistry& registry) {
  RegisterActivationKernels(registry);
  RegisterControlFlowKernels(registry);
  RegisterGeneratorKernels(registry);
  RegisterLogicalKernels(registry);
  RegisterMathKernels(registry);
  RegisterNnKernels(registry);
  RegisterObjectDetectionKernels(registry);
  RegisterQuantizationKernels(registry);
  RegisterReductionKernels(registry);
  RegisterRnnKernels(registry);
  RegisterSequenceKernels(registry);
  RegisterSignalKernels(registry);
  RegisterTensorKernels(registry);
  RegisterTextKernels(registry);
}

}  // namespace ort
