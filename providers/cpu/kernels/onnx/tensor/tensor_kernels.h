// Per-op registration functions of the tensor category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterConcatKernels(KernelRegistry& registry);
void RegisterDepthToSpaceKernels(KernelRegistry& registry);
void RegisterBitCastKernels(KernelRegistry& registry);
void RegisterTensorScatterKernels(KernelRegistry& registry);
void RegisterSliceKernels(KernelRegistry& registry);
void RegisterSplitKernels(KernelRegistry& registry);
void RegisterTransposeKernels(KernelRegistry& registry);
void RegisterGatherKernels(KernelRegistry& registry);
void RegisterGatherElementsKernels(KernelRegistry& registry);
void RegisterGatherNDKernels(KernelRegistry& registry);
void RegisterScatterNDKernels(KernelRegistry& registry);
void RegisterScatterElementsKernels(KernelRegistry& registry);
void RegisterExpandKernels(KernelRegistry& registry);
void RegisterTileKernels(KernelRegistry& registry);
void RegisterCenterCropPadKernels(KernelRegistry& registry);
void RegisterCropKernels(KernelRegistry& registry);
void RegisterPadKernels(KernelRegistry& registry);
void RegisterCompressKernels(KernelRegistry& registry);
void RegisterNonZeroKernels(KernelRegistry& registry);
void RegisterUniqueKernels(KernelRegistry& registry);
void RegisterReverseSequenceKernels(KernelRegistry& registry);
void RegisterTriluKernels(KernelRegistry& registry);
void RegisterOneHotKernels(KernelRegistry& registry);
void RegisterTopKKernels(KernelRegistry& registry);
void RegisterResizeKernels(KernelRegistry& registry);
void RegisterGridSampleKernels(KernelRegistry& registry);
void RegisterAffineGridKernels(KernelRegistry& registry);

}  // namespace ort
