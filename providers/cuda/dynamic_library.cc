#include "providers/cuda/dynamic_library.h"

#include <dlfcn.h>

namespace ort {

Result<void*> OpenCudaLibrary(const std::string& soname) {
  void* library =
      dlopen((std::string(ORT_CUDA_LIBRARY_DIR) + "/" + soname).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) library = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    return ORT_ERROR(kNotImplemented, "cannot load {}: {}", soname, dlerror());
  }
  return library;
}

bool ResolveSymbol(void* library, const char* name, void** function) {
  *function = dlsym(library, name);
  return *function != nullptr;
}

}  // namespace ort
