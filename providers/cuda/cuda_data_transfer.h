// Copies between host and device (either way) and within the device, on the provider's stream.
// A copy to the host waits for the stream, so the host may read the result at once; a copy to
// the device is ordered before the kernels that follow it on the stream.
#pragma once

#include <cuda_runtime_api.h>

#include "lib/framework/execution_provider.h"

namespace ort {

class CudaDataTransfer final : public IDataTransfer {
 public:
  CudaDataTransfer(int device_id, cudaStream_t stream) : device_id_(device_id), stream_(stream) {}
  bool CanCopy(const MemoryInfo& source, const MemoryInfo& destination) const override;
  Status Copy(const Tensor& source, Tensor& destination) const override;

 private:
  int device_id_;
  cudaStream_t stream_;
};

}  // namespace ort
