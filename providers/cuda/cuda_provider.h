// The CUDA execution provider: claims the nodes its kernels serve (with their type constraints),
// allocates on one GPU through an arena, copies between host and device on its stream, and runs
// kernels on that stream (one per session). It can be built and asked for its capability on a
// machine without a GPU; CreateCudaProvider refuses there, so a session never plans work for an
// absent device.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "lib/framework/execution_provider.h"
#include "lib/memory/arena.h"
#include "providers/cuda/cublas_loader.h"
#include "providers/cuda/cudnn_loader.h"

namespace ort {

/// What the matrix units (cuBLAS GEMMs, cuDNN convolutions) compute float tensors in. Tensors stay
/// float in memory; only the multiply inputs are rounded. kFp32 is exact IEEE float (no TF32).
enum class MatrixPrecision { kFp32, kTf32, kFp16, kBf16 };

/// "fp32", "tf32", "fp16" or "bf16".
Result<MatrixPrecision> ParseMatrixPrecision(std::string_view text);

struct CudaProviderOptions {
  int device_id = 0;
  MatrixPrecision precision = MatrixPrecision::kFp32;
  /// Device tensors come from a BFC arena over cudaMalloc (ONNX Runtime's default).
  bool use_arena = true;
  ArenaOptions arena;
};

class CudaExecutionProvider final : public IExecutionProvider {
 public:
  /// Touches the device only when one is present (device_available()).
  explicit CudaExecutionProvider(CudaProviderOptions options = {});
  ~CudaExecutionProvider() override;
  CudaExecutionProvider(const CudaExecutionProvider&) = delete;
  CudaExecutionProvider& operator=(const CudaExecutionProvider&) = delete;

  const KernelRegistry& kernel_registry() const override;
  std::shared_ptr<IAllocator> allocator() const override { return allocator_; }
  const IDataTransfer* data_transfer() const override { return transfer_.get(); }
  Status Synchronize() const override;
  /// Brackets `work` with CUDA events on the stream and returns their elapsed time.
  Result<std::optional<double>> TimeDeviceWork(const std::function<Status()>& work) const override;
  /// The nodes the kernels serve, except those better left to the host (host_placement.h):
  /// shape arithmetic, and nodes reading only host values whose results are read only on the
  /// host.
  std::vector<NodeIndex> GetCapability(const Graph& graph) const override;
  /// Every fusion into ops its kernels run, except Conv + Add (+ activation) into FusedConv with
  /// Z: ONNX Runtime makes that one for its CPU provider only, and cuDNN's Z path has not yet run
  /// on a device here.
  bool AcceptsRewrite(std::string_view rewrite) const override;

  bool device_available() const { return handles_.stream != nullptr; }
  /// Why the device is not available; empty when it is.
  const std::string& device_error() const { return device_error_; }
  /// The stream every kernel and copy of this provider runs on.
  cudaStream_t stream() const { return handles_.stream; }
  /// cuBLAS and cuDNN bound to stream(), and their entry points; null without a device.
  cublasHandle_t cublas() const { return handles_.cublas; }
  const CublasApi* cublas_api() const { return handles_.cublas_api; }
  cudnnHandle_t cudnn() const { return handles_.cudnn; }
  const CudnnApi* cudnn_api() const { return handles_.cudnn_api; }
  int device_id() const { return options_.device_id; }
  MatrixPrecision precision() const { return options_.precision; }
  /// cuBLAS's compute type for float GEMMs at precision(); half tensors always use
  /// CUBLAS_COMPUTE_32F (half inputs, float accumulation).
  cublasComputeType_t FloatGemmComputeType() const;
  /// cuDNN's math type for float convolutions at precision(). cuDNN's legacy API has no
  /// bfloat16 down-conversion, so kBf16 convolutions use TF32.
  cudnnMathType_t FloatConvMathType() const;

  /// The library handles of an open device.
  struct Handles {
    cudaStream_t stream = nullptr;
    const CublasApi* cublas_api = nullptr;
    cublasHandle_t cublas = nullptr;
    const CudnnApi* cudnn_api = nullptr;
    cudnnHandle_t cudnn = nullptr;
  };

 private:
  void Close();

  CudaProviderOptions options_;
  std::string device_error_;
  Handles handles_;
  std::shared_ptr<IAllocator> allocator_;
  std::unique_ptr<IDataTransfer> transfer_;
};

/// Every CUDA kernel, registered once per process (no device needed).
const KernelRegistry& CudaKernelRegistry();

/// A provider on a present device, or an error saying why there is none.
Result<std::unique_ptr<CudaExecutionProvider>> CreateCudaProvider(CudaProviderOptions options);

}  // namespace ort
