// The machine's measured single-core fp32 FMA peak, the yardstick the kernel benchmark reports
// its percentages against.
#pragma once

#include "lib/common/cpu_info.h"

namespace ort::bench {

/// GFLOP/s of independent fused multiply-adds at `isa`'s vector width on the calling thread,
/// best of a few short runs. The CPU must support `isa`.
double MeasureFmaPeakGflops(CpuIsa isa);

}  // namespace ort::bench
