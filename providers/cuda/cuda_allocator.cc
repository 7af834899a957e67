#include "providers/cuda/cuda_allocator.h"

#include <cuda_runtime_api.h>

namespace ort {

CudaAllocator::CudaAllocator(int device_id) : info_{MemoryInfo::Device::kGpu, device_id} {}

void* CudaAllocator::Alloc(size_t bytes) {
  // cudaMalloc aligns to 256 bytes, more than kAlignment.
  void* pointer = nullptr;
  if (cudaSetDevice(info_.device_id) != cudaSuccess) return nullptr;
  if (cudaMalloc(&pointer, bytes == 0 ? 1 : bytes) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls are not blamed
    return nullptr;
  }
  return pointer;
}

void CudaAllocator::Free(void* pointer) {
  if (pointer != nullptr) cudaFree(pointer);
}

}  // namespace ort
