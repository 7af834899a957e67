#include "providers/cpu/kernels/onnx/logical/logical_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterLogicalKernels(KernelRegistry& registry) {
  RegisterBitwiseKernels(registry);
  RegisterComparisonKernels(registry);
  RegisterLogicalOpKernels(registry);
  RegisterWhereKernels(registry);
}

}  // namespace ort
