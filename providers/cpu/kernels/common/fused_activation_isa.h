// FusedActivation::Apply for float compiled once per instruction set; fused_activation.cc picks
// the one MaxCpuIsa() allows.
#pragma once

#include <cstdint>

#include "providers/cpu/kernels/common/fused_activation.h"

namespace ort {

void ApplyFusedActivationAvx512(const FusedActivation& activation, float* data, int64_t count);
void ApplyFusedActivationAvx2(const FusedActivation& activation, float* data, int64_t count);

}  // namespace ort
