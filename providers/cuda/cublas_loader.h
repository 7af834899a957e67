// cuBLAS, loaded when a CUDA provider opens a device rather than linked (dynamic_library.h).
#pragma once

#include <cublas_v2.h>

#include <string_view>

#include "lib/common/status.h"

namespace ort {

/// The cuBLAS entry points this provider calls.
struct CublasApi {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  // Named by type: C++ sees an overload of cublasGemmEx.
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const void*, const void*, cudaDataType, int, const void*, cudaDataType,
                            int, const void*, void*, cudaDataType, int, cublasComputeType_t,
                            cublasGemmAlgo_t) = nullptr;
  cublasStatus_t (*gemm_strided_batched_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                            int, int, int, const void*, const void*, cudaDataType,
                                            int, long long, const void*, cudaDataType, int,
                                            long long, const void*, void*, cudaDataType, int,
                                            long long, int, cublasComputeType_t,
                                            cublasGemmAlgo_t) = nullptr;
  decltype(&cublasGetStatusName) status_name = nullptr;
  decltype(&cublasGetStatusString) status_string = nullptr;
};

/// The API of libcublas.so.<major> (from the toolkit's directory, else the loader's path),
/// loaded once; an error naming the library when it cannot be loaded.
Result<const CublasApi*> LoadCublas();

/// OK for CUBLAS_STATUS_SUCCESS, else an error naming `what` and cuBLAS's description.
Status CublasStatus(const CublasApi& api, cublasStatus_t status, std::string_view what);

}  // namespace ort
