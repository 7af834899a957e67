#include "providers/cuda/cuda_provider.h"

#include <set>

#include "lib/session/memcpy_insertion.h"
#include "providers/cuda/cuda_allocator.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/cuda_data_transfer.h"
#include "providers/cuda/host_placement.h"
#include "providers/cuda/kernels/cuda_kernels.h"

namespace ort {
namespace {

// The device, or why it cannot be used. Fills `handles` as far as it gets.
Status OpenDevice(int device_id, CudaExecutionProvider::Handles& handles) {
  int count = 0;
  const cudaError_t found = cudaGetDeviceCount(&count);
  if (found == cudaErrorNoDevice || found == cudaErrorInsufficientDriver) {
    return ORT_ERROR(kNotImplemented, "no CUDA GPU or driver on this machine ({})",
                     cudaGetErrorString(found));
  }
  ORT_CUDA_RETURN_IF_ERROR(found, "looking for CUDA devices");
  if (device_id < 0 || device_id >= count) {
    return ORT_ERROR(kInvalidArgument, "CUDA device {} does not exist ({} visible)", device_id,
                     count);
  }
  ORT_CUDA_RETURN_IF_ERROR(cudaSetDevice(device_id), "selecting the CUDA device");
  ORT_CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&handles.stream, cudaStreamNonBlocking),
                           "creating a CUDA stream");
  ORT_ASSIGN_OR_RETURN(handles.cublas_api, LoadCublas());
  const CublasApi& cublas = *handles.cublas_api;
  ORT_RETURN_IF_ERROR(CublasStatus(cublas, cublas.create(&handles.cublas), "creating cuBLAS"));
  ORT_RETURN_IF_ERROR(CublasStatus(cublas, cublas.set_stream(handles.cublas, handles.stream),
                                   "binding cuBLAS to the stream"));
  ORT_ASSIGN_OR_RETURN(handles.cudnn_api, LoadCudnn());
  const CudnnApi& cudnn = *handles.cudnn_api;
  ORT_RETURN_IF_ERROR(CudnnStatus(cudnn, cudnn.create(&handles.cudnn), "creating cuDNN"));
  return CudnnStatus(cudnn, cudnn.set_stream(handles.cudnn, handles.stream),
                     "binding cuDNN to the stream");
}

}  // namespace

Result<MatrixPrecision> ParseMatrixPrecision(std::string_view text) {
  if (text == "fp32") return MatrixPrecision::kFp32;
  if (text == "tf32") return MatrixPrecision::kTf32;
  if (text == "fp16") return MatrixPrecision::kFp16;
  if (text == "bf16") return MatrixPrecision::kBf16;
  return ORT_ERROR(kInvalidArgument, "unknown precision '{}' (fp32, tf32, fp16, bf16)", text);
}

CudaExecutionProvider::CudaExecutionProvider(CudaProviderOptions options)
    : IExecutionProvider("cuda"), options_(options) {
  Status opened = OpenDevice(options_.device_id, handles_);
  if (!opened.ok()) {
    Close();
    device_error_ = opened.message();
    cudaGetLastError();
  }
  std::shared_ptr<IAllocator> device = std::make_shared<CudaAllocator>(options_.device_id);
  allocator_ = options_.use_arena ? std::make_shared<ArenaAllocator>(device, options_.arena)
                                  : std::move(device);
  transfer_ = std::make_unique<CudaDataTransfer>(options_.device_id, handles_.stream);
}

CudaExecutionProvider::~CudaExecutionProvider() {
  // The arena returns its regions before the stream goes.
  allocator_.reset();
  Close();
}

void CudaExecutionProvider::Close() {
  if (handles_.cudnn != nullptr) handles_.cudnn_api->destroy(handles_.cudnn);
  if (handles_.cublas != nullptr) handles_.cublas_api->destroy(handles_.cublas);
  if (handles_.stream != nullptr) cudaStreamDestroy(handles_.stream);
  handles_ = {};
}

Result<std::optional<double>> CudaExecutionProvider::TimeDeviceWork(
    const std::function<Status()>& work) const {
  if (!device_available()) return IExecutionProvider::TimeDeviceWork(work);
  cudaEvent_t events[2] = {nullptr, nullptr};
  const auto destroy = [&events] {
    for (cudaEvent_t event : events) {
      if (event != nullptr) cudaEventDestroy(event);
    }
  };
  Status status = CudaStatus(cudaEventCreate(&events[0]), "creating a CUDA event");
  if (status.ok()) status = CudaStatus(cudaEventCreate(&events[1]), "creating a CUDA event");
  if (status.ok()) status = CudaStatus(cudaEventRecord(events[0], stream()), "timing a node");
  if (status.ok()) status = work();
  if (status.ok()) status = CudaStatus(cudaEventRecord(events[1], stream()), "timing a node");
  if (status.ok()) status = CudaStatus(cudaEventSynchronize(events[1]), "timing a node");
  float milliseconds = 0.0f;
  if (status.ok()) {
    status = CudaStatus(cudaEventElapsedTime(&milliseconds, events[0], events[1]), "timing a node");
  }
  destroy();
  if (!status.ok()) return status;
  return std::optional<double>(1000.0 * milliseconds);
}

cublasComputeType_t CudaExecutionProvider::FloatGemmComputeType() const {
  switch (options_.precision) {
    case MatrixPrecision::kFp32:
      return CUBLAS_COMPUTE_32F;
    case MatrixPrecision::kTf32:
      return CUBLAS_COMPUTE_32F_FAST_TF32;
    case MatrixPrecision::kFp16:
      return CUBLAS_COMPUTE_32F_FAST_16F;
    case MatrixPrecision::kBf16:
      return CUBLAS_COMPUTE_32F_FAST_16BF;
  }
  return CUBLAS_COMPUTE_32F;
}

cudnnMathType_t CudaExecutionProvider::FloatConvMathType() const {
  switch (options_.precision) {
    case MatrixPrecision::kFp32:
      return CUDNN_FMA_MATH;
    case MatrixPrecision::kTf32:
    case MatrixPrecision::kBf16:
      return CUDNN_TENSOR_OP_MATH;
    case MatrixPrecision::kFp16:
      return CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
  }
  return CUDNN_FMA_MATH;
}

Status CudaExecutionProvider::Synchronize() const {
  if (!device_available()) return Status::OK();
  return CudaStatus(cudaStreamSynchronize(stream()), "waiting for the CUDA stream");
}

bool CudaExecutionProvider::AcceptsRewrite(std::string_view rewrite) const {
  return rewrite != "fuse_conv_add_activation";
}

std::vector<NodeIndex> CudaExecutionProvider::GetCapability(const Graph& graph) const {
  const std::set<NodeIndex> shape_arithmetic = ShapeArithmeticNodes(graph);
  std::set<NodeIndex> device;
  for (NodeIndex index : IExecutionProvider::GetCapability(graph)) {
    if (shape_arithmetic.count(index) == 0) device.insert(index);
  }
  KeepHostOnlyNodesOnHost(graph, kernel_registry(), device);
  return {device.begin(), device.end()};
}

const KernelRegistry& CudaExecutionProvider::kernel_registry() const {
  return CudaKernelRegistry();
}

const KernelRegistry& CudaKernelRegistry() {
  static const KernelRegistry* registry = [] {
    auto* created = new KernelRegistry();
    RegisterMemcpyKernels(*created);
    RegisterCudaKernels(*created);
    return created;
  }();
  return *registry;
}

Result<std::unique_ptr<CudaExecutionProvider>> CreateCudaProvider(CudaProviderOptions options) {
  auto provider = std::make_unique<CudaExecutionProvider>(options);
  if (!provider->device_available()) {
    return ORT_ERROR(kNotImplemented, "the CUDA provider cannot run here: {}",
                     provider->device_error());
  }
  return provider;
}

}  // namespace ort
