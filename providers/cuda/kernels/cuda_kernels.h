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
void RegisterCudaConvKernels(KernelRegistry& registry);
void RegisterCudaPoolKernels(KernelRegistry& registry);
void RegisterCudaBatchNormKernels(KernelRegistry& registry);
void RegisterCudaReduceKernels(KernelRegistry& registry);
void RegisterCudaCastKernels(KernelRegistry& registry);
void RegisterCudaSliceKernels(KernelRegistry& registry);
void RegisterCudaWhereKernels(KernelRegistry& registry);
void RegisterCudaAttentionKernels(KernelRegistry& registry);
void RegisterCudaEmbedLayerNormKernels(KernelRegistry& registry);
void RegisterCudaGeluKernels(KernelRegistry& registry);

/// Element types a GPU tensor may hold: every numeric type and bool (no strings).
std::vector<DataType> CudaTensorTypes();

/// Base of the CUDA kernels: keeps the stream of the provider that created the kernel, which
/// every launch and copy goes on. Kernels parse their attributes in InitAttributes.
class CudaKernel : public OpKernel {
 public:
  Status Init(const KernelInfo& info) final;

 protected:
  virtual Status InitAttributes(const KernelInfo& info) {
    (void)info;
    return Status::OK();
  }
  cudaStream_t stream() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace ort
