#include "providers/cpu/kernels/onnx/rnn/rnn_kernels.h"

#include "providers/cpu/kernels/onnx/onnx_kernels.h"

namespace ort {

void RegisterRnnKernels(KernelRegistry& registry) {
  RegisterGruKernels(registry);
  RegisterLstmKernels(registry);
  RegisterSimpleRnnKernels(registry);
}

}  // namespace ort
