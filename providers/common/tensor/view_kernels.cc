#include "providers/common/tensor/view_kernels.h"

namespace ort {

void RegisterViewKernels(KernelRegistry& registry, const std::vector<DataType>& types) {
  RegisterIdentityKernels(registry, types);
  RegisterReshapeKernels(registry, types);
  RegisterSqueezeKernels(registry, types);
  RegisterShapeKernels(registry, types);
}

}  // namespace ort
