// CUDA runtime errors as Status, for the provider's host code.
#pragma once

#include <cuda_runtime_api.h>

#include <string_view>

#include "lib/common/status.h"

namespace ort {

class Node;

/// OK for cudaSuccess, else an error naming `what` and CUDA's description.
Status CudaStatus(cudaError_t error, std::string_view what);
/// OK for cudaSuccess, else an error in `node`'s kernel that names the node (Status::WithNode).
Status CudaStatus(cudaError_t error, const Node& node);

}  // namespace ort

#define ORT_CUDA_RETURN_IF_ERROR(expr, what) ORT_RETURN_IF_ERROR(::ort::CudaStatus((expr), (what)))
