#include "providers/cpu/cpu_provider.h"

#include "providers/cpu/kernels/contrib/contrib_kernels.h"
#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

const KernelRegistry& CpuKernelRegistry() {
  static const KernelRegistry registry = [] {
    KernelRegistry built;
    RegisterOnnxKernels(built);
    RegisterContribKernels(built);
    return built;
  }();
  return registry;
}

CpuExecutionProvider::CpuExecutionProvider(CpuProviderOptions options)
    : IExecutionProvider("cpu"),
      allocator_(options.use_arena
                     ? std::make_shared<ArenaAllocator>(DefaultCpuAllocator(), options.arena)
                     : DefaultCpuAllocator()) {}

const KernelRegistry& CpuExecutionProvider::kernel_registry() const { return CpuKernelRegistry(); }

}  // namespace ort
