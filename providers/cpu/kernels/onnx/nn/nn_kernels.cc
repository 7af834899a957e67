#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterNnKernels(KernelRegistry& registry) { (void)registry; }

}  // namespace ort
