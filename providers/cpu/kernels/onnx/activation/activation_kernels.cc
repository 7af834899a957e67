#include "providers/cpu/kernels/onnx/activation/activation_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterActivationKernels(KernelRegistry& registry) {
  RegisterActivationFunctionKernels(registry);
  RegisterPReluKernels(registry);
}

}  // namespace ort
