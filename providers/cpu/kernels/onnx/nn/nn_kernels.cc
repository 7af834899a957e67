#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterNnKernels(KernelRegistry& registry) {
  RegisterBatchNormalizationKernels(registry);
  RegisterCol2ImKernels(registry);
  RegisterImageScalerKernels(registry);
  RegisterRotaryEmbeddingKernels(registry);
  RegisterOnnxAttentionKernels(registry);
  RegisterConvIntegerKernels(registry);
  RegisterQLinearConvKernels(registry);
  RegisterConvKernels(registry);
  RegisterConvTransposeKernels(registry);
  RegisterDropoutKernels(registry);
  RegisterGlobalPoolKernels(registry);
  RegisterGroupNormalizationKernels(registry);
  RegisterInstanceNormalizationKernels(registry);
  RegisterLayerNormalizationKernels(registry);
  RegisterLpNormalizationKernels(registry);
  RegisterLrnKernels(registry);
  RegisterMaxRoiPoolKernels(registry);
  RegisterMaxUnpoolKernels(registry);
  RegisterMeanVarianceNormalizationKernels(registry);
  RegisterPoolKernels(registry);
  RegisterRoiAlignKernels(registry);
  RegisterStringNormalizerKernels(registry);
  RegisterTfIdfVectorizerKernels(registry);
}

}  // namespace ort
