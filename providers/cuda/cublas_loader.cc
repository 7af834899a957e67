#include "providers/cuda/cublas_loader.h"

#include "providers/cuda/dynamic_library.h"

namespace ort {
namespace {

Result<CublasApi> Open() {
  const std::string soname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
  ORT_ASSIGN_OR_RETURN(void* library, OpenCudaLibrary(soname));
  CublasApi api;
  if (!Resolve(library, "cublasCreate_v2", &api.create) ||
      !Resolve(library, "cublasDestroy_v2", &api.destroy) ||
      !Resolve(library, "cublasSetStream_v2", &api.set_stream) ||
      !Resolve(library, "cublasGemmEx", &api.gemm_ex) ||
      !Resolve(library, "cublasGemmStridedBatchedEx", &api.gemm_strided_batched_ex) ||
      !Resolve(library, "cublasGetStatusName", &api.status_name) ||
      !Resolve(library, "cublasGetStatusString", &api.status_string)) {
    return ORT_ERROR(kNotImplemented, "{} lacks an expected function", soname);
  }
  return api;
}

}  // namespace

Result<const CublasApi*> LoadCublas() {
  // The library stays loaded for the life of the process.
  static const Result<CublasApi> loaded = Open();
  if (!loaded.ok()) return loaded.status();
  return &*loaded;
}

Status CublasStatus(const CublasApi& api, cublasStatus_t status, std::string_view what) {
  if (status == CUBLAS_STATUS_SUCCESS) return Status::OK();
  return ORT_ERROR(kRuntimeError, "{}: cuBLAS error {} ({})", what, api.status_name(status),
                   api.status_string(status));
}

}  // namespace ort
