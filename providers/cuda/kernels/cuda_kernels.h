// Registration of every CUDA kernel (one call per category file) and what kernels share.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "lib/framework/kernel_registry.h"
#include "lib/framework/op_kernel.h"

namespace ort {

void RegisterCudaKernels(KernelRegistry& registry);
void RegisterCudaElementwiseKernels(KernelRegistry& registry);
void RegisterCudaMatMulKernels(KernelRegistry& registry);
void RegisterCudaTransposeExpandKernels(KernelRegistry& registry);
void RegisterCudaSoftmaxKernels(KernelRegistry& registry);
void RegisterCudaLayerNormKernels(KernelRegistry& registry);
void RegisterCudaGatherKernels(KernelRegistry& registry);
void RegisterCudaConcatKernels(KernelRegistry& registry);

/// Element types a GPU tensor may hold: every numeric type and bool (no strings).
std::vector<DataType> CudaTensorTypes();

/// The stream of the CUDA provider a kernel belongs to.
cudaStream_t CudaStreamOf(const KernelInfo& info);

}  // namespace ort
