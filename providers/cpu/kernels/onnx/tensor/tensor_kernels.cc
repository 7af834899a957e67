#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

#include "providers/common/tensor/view_kernels.h"
#include "providers/cpu/kernels/onnx/onnx_kernels.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"

namespace ort {

void RegisterTensorKernels(KernelRegistry& registry) {
  RegisterConcatKernels(registry);
  RegisterDepthToSpaceKernels(registry);
  RegisterViewKernels(registry, AllDataTypesWithPacked());
  RegisterBitCastKernels(registry);
  RegisterTensorScatterKernels(registry);
  RegisterSliceKernels(registry);
  RegisterSplitKernels(registry);
  RegisterTransposeKernels(registry);
  RegisterGatherKernels(registry);
  RegisterGatherElementsKernels(registry);
  RegisterGatherNDKernels(registry);
  RegisterScatterNDKernels(registry);
  RegisterScatterElementsKernels(registry);
  RegisterExpandKernels(registry);
  RegisterTileKernels(registry);
  RegisterCenterCropPadKernels(registry);
  RegisterCropKernels(registry);
  RegisterPadKernels(registry);
  RegisterCompressKernels(registry);
  RegisterNonZeroKernels(registry);
  RegisterUniqueKernels(registry);
  RegisterReverseSequenceKernels(registry);
  RegisterTriluKernels(registry);
  RegisterOneHotKernels(registry);
  RegisterTopKKernels(registry);
  RegisterResizeKernels(registry);
  RegisterGridSampleKernels(registry);
  RegisterAffineGridKernels(registry);
}

}  // namespace ort
