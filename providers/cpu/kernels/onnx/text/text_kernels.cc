#include "providers/cpu/kernels/onnx/text/text_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterTextKernels(KernelRegistry& registry) {
  RegisterStringConcatKernels(registry);
  RegisterStringSplitKernels(registry);
  RegisterRegexFullMatchKernels(registry);
}

}  // namespace ort
