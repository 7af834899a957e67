// The machine's measured single-core fp32 FMA and int8 VNNI peaks, the yardsticks the kernel
// benchmark reports its percentages against.
#pragma once

#include "lib/common/cpu_info.h"

namespace ort::bench {

/// GFLOP/s of independent fused multiply-adds at `isa`'s vector width on the calling thread,
/// best of a few short runs. The CPU must support `isa`.
double MeasureFmaPeakGflops(CpuIsa isa);

/// Giga-operations per second (a byte multiply-add counts 2) of independent 512-bit VPDPBUSD on
/// the calling thread, best of a few short runs. The CPU must have AVX-512 VNNI.
double MeasureVnniPeakGops();

}  // namespace ort::bench
