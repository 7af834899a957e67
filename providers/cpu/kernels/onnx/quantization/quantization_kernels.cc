#include "providers/cpu/kernels/onnx/quantization/quantization_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterQuantizationKernels(KernelRegistry& registry) {
  RegisterDynamicQuantizeLinearKernels(registry);
  RegisterQuantizeLinearKernels(registry);
}

}  // namespace ort
