#include "providers/cpu/kernels/onnx/generator/generator_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterGeneratorKernels(KernelRegistry& registry) {
  RegisterConstantKernels(registry);
  RegisterEyeLikeKernels(registry);
  RegisterRandomKernels(registry);
  RegisterRangeKernels(registry);
}

}  // namespace ort
