#include "providers/cuda/cuda_data_transfer.h"

#include "providers/cuda/cuda_common.h"

namespace ort {

bool CudaDataTransfer::CanCopy(const MemoryInfo& source, const MemoryInfo& destination) const {
  const auto on_this_gpu = [&](const MemoryInfo& info) {
    return info.device == MemoryInfo::Device::kGpu && info.device_id == device_id_;
  };
  return (on_this_gpu(source) || source.IsHost()) &&
         (on_this_gpu(destination) || destination.IsHost()) &&
         !(source.IsHost() && destination.IsHost());
}

Status CudaDataTransfer::Copy(const Tensor& source, Tensor& destination) const {
  ORT_RETURN_IF_NOT(source.dtype() == destination.dtype() && source.shape() == destination.shape(),
                    "cannot copy {} into {}", source.Describe(), destination.Describe());
  ORT_RETURN_IF_NOT(source.dtype() != DataType::kString, "string tensors cannot live on a GPU");
  ORT_RETURN_IF_NOT(CanCopy(source.location(), destination.location()),
                    "no CUDA copy from {} to {}", source.location().ToString(),
                    destination.location().ToString());
  const size_t bytes = source.SizeInBytes();
  if (bytes == 0) return Status::OK();
  const cudaMemcpyKind kind = source.location().IsHost()        ? cudaMemcpyHostToDevice
                              : destination.location().IsHost() ? cudaMemcpyDeviceToHost
                                                                : cudaMemcpyDeviceToDevice;
  ORT_CUDA_RETURN_IF_ERROR(
      cudaMemcpyAsync(destination.MutableRawData(), source.RawData(), bytes, kind, stream_),
      "copy " + source.Describe());
  // Pageable host memory: the host side must not change or vanish before the copy is done.
  ORT_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream_), "copy " + source.Describe());
  return Status::OK();
}

}  // namespace ort
