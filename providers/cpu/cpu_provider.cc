#include "providers/cpu/cpu_provider.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

const KernelRegistry& CpuKernelRegistry() {
  static const KernelRegistry registry = [] {
    KernelRegistry built;
    RegisterOnnxKernels(built);
    return built;
  }();
  return registry;
}

const KernelRegistry& CpuExecutionProvider::kernel_registry() const { return CpuKernelRegistry(); }

}  // namespace ort
