#include "providers/cuda/cuda_common.h"

#include "lib/ir/graph.h"

namespace ort {
namespace {

Status CudaError(cudaError_t error) {
  return ORT_ERROR(kRuntimeError, "CUDA error {} ({})", cudaGetErrorName(error),
                   cudaGetErrorString(error));
}

}  // namespace

Status CudaStatus(cudaError_t error, std::string_view what) {
  if (error == cudaSuccess) return Status::OK();
  return CudaError(error).WithContext(what);
}

Status CudaStatus(cudaError_t error, const Node& node) {
  if (error == cudaSuccess) return Status::OK();
  return CudaError(error).WithNode(node.Describe());
}

}  // namespace ort
