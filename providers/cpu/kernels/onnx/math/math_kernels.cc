#include "providers/cpu/kernels/onnx/math/math_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterMathKernels(KernelRegistry& registry) {
  RegisterBinaryArithmeticKernels(registry);
  RegisterBitShiftKernels(registry);
  RegisterCastKernels(registry);
  RegisterClipKernels(registry);
  RegisterCumulativeKernels(registry);
  RegisterDetKernels(registry);
  RegisterEinsumKernels(registry);
  RegisterGemmKernels(registry);
  RegisterIsNaNInfKernels(registry);
  RegisterMatMulIntegerKernels(registry);
  RegisterMatMulKernels(registry);
  RegisterModKernels(registry);
  RegisterPowKernels(registry);
  RegisterSoftmaxKernels(registry);
  RegisterUnaryMathKernels(registry);
  RegisterVariadicKernels(registry);
}

}  // namespace ort
