#include "providers/cuda/cuda_common.h"

namespace ort {

Status CudaStatus(cudaError_t error, std::string_view what) {
  if (error == cudaSuccess) return Status::OK();
  return ORT_ERROR(kRuntimeError, "{}: CUDA error {} ({})", what, cudaGetErrorName(error),
                   cudaGetErrorString(error));
}

}  // namespace ort
