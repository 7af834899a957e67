#include "providers/cuda/kernels/cuda_kernels.h"

#include "providers/common/tensor/view_kernels.h"
#include "providers/cuda/cuda_provider.h"

namespace ort {

std::vector<DataType> CudaTensorTypes() {
  std::vector<DataType> types = NumericTypes::DataTypes();
  types.push_back(DataType::kBool);
  return types;
}

void RegisterCudaKernels(KernelRegistry& registry) {
  RegisterViewKernels(registry, CudaTensorTypes());
  RegisterCudaElementwiseKernels(registry);
  RegisterCudaMatMulKernels(registry);
  RegisterCudaTransposeExpandKernels(registry);
  RegisterCudaSoftmaxKernels(registry);
  RegisterCudaLayerNormKernels(registry);
  RegisterCudaGatherKernels(registry);
  RegisterCudaConcatKernels(registry);
  RegisterCudaConvKernels(registry);
  RegisterCudaPoolKernels(registry);
  RegisterCudaBatchNormKernels(registry);
  RegisterCudaReduceKernels(registry);
  RegisterCudaCastKernels(registry);
  RegisterCudaSliceKernels(registry);
  RegisterCudaWhereKernels(registry);
  RegisterCudaAttentionKernels(registry);
  RegisterCudaEmbedLayerNormKernels(registry);
  RegisterCudaGeluKernels(registry);
}

Status CudaKernel::Init(const KernelInfo& info) {
  const auto* provider = dynamic_cast<const CudaExecutionProvider*>(&info.provider());
  stream_ = provider != nullptr ? provider->stream() : nullptr;
  return InitAttributes(info);
}

}  // namespace ort
