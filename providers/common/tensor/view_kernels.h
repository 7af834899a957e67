// The kernels that only relabel a tensor's shape (Identity, Reshape, Flatten, Squeeze,
// Unsqueeze) or read it (Shape, Size). They never touch element data, so they belong to no
// provider: each provider registers them for the element types its memory holds. Shapes and axes
// are host inputs, Shape's and Size's outputs host outputs.
#pragma once

#include <vector>

#include "lib/framework/kernel_registry.h"

namespace ort {

void RegisterViewKernels(KernelRegistry& registry, const std::vector<DataType>& types);

void RegisterIdentityKernels(KernelRegistry& registry, const std::vector<DataType>& types);
void RegisterReshapeKernels(KernelRegistry& registry, const std::vector<DataType>& types);
void RegisterSqueezeKernels(KernelRegistry& registry, const std::vector<DataType>& types);
void RegisterShapeKernels(KernelRegistry& registry, const std::vector<DataType>& types);

}  // namespace ort
