#include "providers/cpu/kernels/onnx/math/math_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterMathKernels(KernelRegistry& registry) { RegisterBinaryArithmeticKernels(registry); }

}  // namespace ort
