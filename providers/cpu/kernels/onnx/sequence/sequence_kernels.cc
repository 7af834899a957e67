#include "providers/cpu/kernels/onnx/sequence/sequence_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterSequenceKernels(KernelRegistry& registry) {
  RegisterConcatFromSequenceKernels(registry);
  RegisterOptionalKernels(registry);
  RegisterSequenceMapKernels(registry);
  RegisterSequenceOpKernels(registry);
  RegisterSplitToSequenceKernels(registry);
}

}  // namespace ort
