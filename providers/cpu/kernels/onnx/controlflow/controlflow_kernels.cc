#include "providers/cpu/kernels/onnx/controlflow/controlflow_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterControlFlowKernels(KernelRegistry& registry) {
  RegisterIfKernels(registry);
  RegisterLoopKernels(registry);
  RegisterScanKernels(registry);
}

}  // namespace ort
