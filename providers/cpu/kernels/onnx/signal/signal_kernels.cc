#include "providers/cpu/kernels/onnx/signal/signal_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterSignalKernels(KernelRegistry& registry) {
  RegisterDftKernels(registry);
  RegisterMelWeightMatrixKernels(registry);
  RegisterStftKernels(registry);
  RegisterWindowKernels(registry);
}

}  // namespace ort
