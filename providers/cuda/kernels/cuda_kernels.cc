#include "providers/cuda/kernels/cuda_kernels.h"

#include "providers/cuda/cuda_provider.h"

namespace ort {

void RegisterCudaKernels(KernelRegistry& registry) { RegisterCudaElementwiseKernels(registry); }

cudaStream_t CudaStreamOf(const KernelInfo& info) {
  const auto* provider = dynamic_cast<const CudaExecutionProvider*>(&info.provider());
  return provider != nullptr ? provider->stream() : nullptr;
}

}  // namespace ort
