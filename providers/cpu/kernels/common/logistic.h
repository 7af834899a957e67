// sigmoid(alpha x), and x sigmoid(alpha x) (SiLU, Swish, QuickGelu), over float arrays: the
// activation of EfficientNet-, YOLO- and UNet-style networks after nearly every convolution.
// Written against the ISA vectors rather than left to the compiler, which vectorized the generic
// exp at about three times the instruction count (clamps by bit masks, 2^n in two factors).
#pragma once

#include <cstdint>

#include "providers/cpu/kernels/common/isa_dispatch.h"

namespace ort {

/// One instruction set's kernel. out[i] = sigmoid(alpha * in[i]), times in[i] when
/// `times_input`; `in` may equal `out`. Within 3 ulp of the exact value for |alpha x| <= 87;
/// beyond, sigmoid saturates to 0 (within 1.2e-38) or 1.
struct LogisticKernel {
  void (*run)(const float* in, float* out, int64_t count, float alpha, bool times_input);
};

#define ORT_LOGISTIC_KERNEL(name, isa) extern const LogisticKernel name;
#include "providers/cpu/kernels/common/logistic_kernels.inc"
#undef ORT_LOGISTIC_KERNEL

/// Every logistic kernel, in the order of logistic_kernels.inc.
inline constexpr IsaKernel<LogisticKernel> kLogisticKernels[] = {
#define ORT_LOGISTIC_KERNEL(name, isa) {#name, CpuIsa::isa, &name},
#include "providers/cpu/kernels/common/logistic_kernels.inc"
#undef ORT_LOGISTIC_KERNEL
};

/// The logistic kernel of the best instruction set MaxCpuIsa() allows.
inline void ScaledLogistic(const float* in, float* out, int64_t count, float alpha,
                           bool times_input) {
  static const LogisticKernel& best = *BestIsaEntry(kLogisticKernels).kernel;
  best.run(in, out, count, alpha, times_input);
}

}  // namespace ort
