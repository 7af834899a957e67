#include "providers/cuda/cublas_loader.h"

#include <dlfcn.h>

#include <string>

namespace ort {
namespace {

template <typename F>
bool Resolve(void* library, const char* name, F* function) {
  *function = reinterpret_cast<F>(dlsym(library, name));
  return *function != nullptr;
}

Result<CublasApi> Open() {
  const std::string soname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
  void* library =
      dlopen((std::string(ORT_CUDA_LIBRARY_DIR) + "/" + soname).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) library = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    return ORT_ERROR(kNotImplemented, "cannot load {}: {}", soname, dlerror());
  }
  CublasApi api;
  if (!Resolve(library, "cublasCreate_v2", &api.create) ||
      !Resolve(library, "cublasDestroy_v2", &api.destroy) ||
      !Resolve(library, "cublasSetStream_v2", &api.set_stream) ||
      !Resolve(library, "cublasGemmEx", &api.gemm_ex) ||
      !Resolve(library, "cublasGetStatusName", &api.status_name) ||
      !Resolve(library, "cublasGetStatusString", &api.status_string)) {
    return ORT_ERROR(kNotImplemented, "{} lacks an expected function: {}", soname, dlerror());
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
