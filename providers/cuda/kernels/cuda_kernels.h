// Registration of every CUDA kernel (one call per category file) and what kernels share.
#pragma once

#include <cuda_runtime_api.h>

#include "lib/framework/kernel_registry.h"
#include "lib/framework/op_kernel.h"

namespace ort {

void RegisterCudaKernels(KernelRegistry& registry);
void RegisterCudaElementwiseKernels(KernelRegistry& registry);

/// The stream of the CUDA provider a kernel belongs to.
cudaStream_t CudaStreamOf(const KernelInfo& info);

}  // namespace ort
