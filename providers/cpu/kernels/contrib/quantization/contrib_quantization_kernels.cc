#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"

#include "providers/cpu/kernels/contrib/contrib_kernels.h"

namespace ort {

void RegisterContribQuantizationKernels(KernelRegistry& registry) {
  RegisterQLinearConcatKernels(registry);
  RegisterQLinearGlobalAveragePoolKernels(registry);
  RegisterQGemmKernels(registry);
  RegisterQLinearLookupKernels(registry);
  RegisterDynamicQuantizeMatMulKernels(registry);
  RegisterMatMulIntegerToFloatKernels(registry);
  RegisterQLinearSoftmaxKernels(registry);
  RegisterQLinearAveragePoolKernels(registry);
  RegisterQAttentionKernels(registry);
  RegisterDynamicQuantizeLstmKernels(registry);
}

}  // namespace ort
