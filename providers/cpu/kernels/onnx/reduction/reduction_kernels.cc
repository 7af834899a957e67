#include "providers/cpu/kernels/onnx/reduction/reduction_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterReductionKernels(KernelRegistry& registry) {
  RegisterArgMinMaxKernels(registry);
  RegisterReduceKernels(registry);
}

}  // namespace ort
