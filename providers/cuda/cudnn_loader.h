// cuDNN, loaded when a CUDA provider opens a device rather than linked (dynamic_library.h). Only
// the legacy convolution API is used: it picks and runs the fastest engine for a shape itself.
#pragma once

#include <cudnn.h>

#include <string_view>

#include "lib/common/status.h"

namespace ort {

class Node;

/// The cuDNN entry points this provider calls.
struct CudnnApi {
  decltype(&cudnnCreate) create = nullptr;
  decltype(&cudnnDestroy) destroy = nullptr;
  decltype(&cudnnSetStream) set_stream = nullptr;
  decltype(&cudnnGetErrorString) error_string = nullptr;
  decltype(&cudnnCreateTensorDescriptor) create_tensor = nullptr;
  decltype(&cudnnSetTensorNdDescriptor) set_tensor = nullptr;
  decltype(&cudnnDestroyTensorDescriptor) destroy_tensor = nullptr;
  decltype(&cudnnCreateFilterDescriptor) create_filter = nullptr;
  decltype(&cudnnSetFilterNdDescriptor) set_filter = nullptr;
  decltype(&cudnnDestroyFilterDescriptor) destroy_filter = nullptr;
  decltype(&cudnnCreateConvolutionDescriptor) create_convolution = nullptr;
  decltype(&cudnnSetConvolutionNdDescriptor) set_convolution = nullptr;
  decltype(&cudnnSetConvolutionGroupCount) set_group_count = nullptr;
  decltype(&cudnnSetConvolutionMathType) set_math_type = nullptr;
  decltype(&cudnnDestroyConvolutionDescriptor) destroy_convolution = nullptr;
  decltype(&cudnnFindConvolutionForwardAlgorithmEx) find_forward = nullptr;
  decltype(&cudnnGetConvolutionForwardWorkspaceSize) forward_workspace = nullptr;
  decltype(&cudnnConvolutionForward) forward = nullptr;
};

/// The API of libcudnn.so.<major>, loaded once; an error naming the library when it cannot be
/// loaded.
Result<const CudnnApi*> LoadCudnn();

/// OK for CUDNN_STATUS_SUCCESS, else an error naming `what` and cuDNN's description.
Status CudnnStatus(const CudnnApi& api, cudnnStatus_t status, std::string_view what);
/// OK for CUDNN_STATUS_SUCCESS, else an error in `node`'s kernel that names the node
/// (Status::WithNode).
Status CudnnStatus(const CudnnApi& api, cudnnStatus_t status, const Node& node);

}  // namespace ort
