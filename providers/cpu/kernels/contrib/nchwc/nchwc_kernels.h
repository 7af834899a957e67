// Per-op registration functions of the com.microsoft.nchwc kernels: ONNX Runtime's blocked
// layout ops that the optimizer's nchwc_layout pass (level all) introduces. Activations are
// [N, C / B, H, W, B] with B = NchwcBlockSize() and C padded with zeros up to a multiple of B;
// their declared shapes stay 4-D, [N, C padded, H, W].
#pragma once

#include <string>

#include "lib/framework/kernel_registry.h"

namespace ort {

inline const std::string kNchwcDomain = "com.microsoft.nchwc";

void RegisterNchwcReorderKernels(KernelRegistry& registry);
void RegisterNchwcConvKernels(KernelRegistry& registry);
void RegisterNchwcPoolKernels(KernelRegistry& registry);
void RegisterNchwcUpsampleKernels(KernelRegistry& registry);

}  // namespace ort
