#include "providers/cpu/kernels/onnx/object_detection/object_detection_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterObjectDetectionKernels(KernelRegistry& registry) {
  RegisterNonMaxSuppressionKernels(registry);
}

}  // namespace ort
