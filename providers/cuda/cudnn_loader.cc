#include "providers/cuda/cudnn_loader.h"

#include <string>

#include "lib/ir/graph.h"
#include "providers/cuda/dynamic_library.h"

namespace ort {
namespace {

Result<CudnnApi> Open() {
  const std::string soname = "libcudnn.so." + std::to_string(CUDNN_MAJOR);
  ORT_ASSIGN_OR_RETURN(void* library, OpenCudaLibrary(soname));
  CudnnApi api;
  if (!Resolve(library, "cudnnCreate", &api.create) ||
      !Resolve(library, "cudnnDestroy", &api.destroy) ||
      !Resolve(library, "cudnnSetStream", &api.set_stream) ||
      !Resolve(library, "cudnnGetErrorString", &api.error_string) ||
      !Resolve(library, "cudnnCreateTensorDescriptor", &api.create_tensor) ||
      !Resolve(library, "cudnnSetTensorNdDescriptor", &api.set_tensor) ||
      !Resolve(library, "cudnnDestroyTensorDescriptor", &api.destroy_tensor) ||
      !Resolve(library, "cudnnCreateFilterDescriptor", &api.create_filter) ||
      !Resolve(library, "cudnnSetFilterNdDescriptor", &api.set_filter) ||
      !Resolve(library, "cudnnDestroyFilterDescriptor", &api.destroy_filter) ||
      !Resolve(library, "cudnnCreateConvolutionDescriptor", &api.create_convolution) ||
      !Resolve(library, "cudnnSetConvolutionNdDescriptor", &api.set_convolution) ||
      !Resolve(library, "cudnnSetConvolutionGroupCount", &api.set_group_count) ||
      !Resolve(library, "cudnnSetConvolutionMathType", &api.set_math_type) ||
      !Resolve(library, "cudnnDestroyConvolutionDescriptor", &api.destroy_convolution) ||
      !Resolve(library, "cudnnFindConvolutionForwardAlgorithmEx", &api.find_forward) ||
      !Resolve(library, "cudnnGetConvolutionForwardWorkspaceSize", &api.forward_workspace) ||
      !Resolve(library, "cudnnConvolutionForward", &api.forward)) {
    return ORT_ERROR(kNotImplemented, "{} lacks an expected function", soname);
  }
  return api;
}

Status CudnnError(const CudnnApi& api, cudnnStatus_t status) {
  return ORT_ERROR(kRuntimeError, "cuDNN error {} ({})", static_cast<int>(status),
                   api.error_string(status));
}

}  // namespace

Result<const CudnnApi*> LoadCudnn() {
  static const Result<CudnnApi> loaded = Open();
  if (!loaded.ok()) return loaded.status();
  return &*loaded;
}

Status CudnnStatus(const CudnnApi& api, cudnnStatus_t status, std::string_view what) {
  if (status == CUDNN_STATUS_SUCCESS) return Status::OK();
  return CudnnError(api, status).WithContext(what);
}

Status CudnnStatus(const CudnnApi& api, cudnnStatus_t status, const Node& node) {
  if (status == CUDNN_STATUS_SUCCESS) return Status::OK();
  return CudnnError(api, status).WithNode(node.Describe());
}

}  // namespace ort
