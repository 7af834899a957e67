#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterTensorKernels(KernelRegistry& registry) { (void)registry; }

}  // namespace ort
