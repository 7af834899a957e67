// The CUDA libraries the provider opens with dlopen when it opens a device (cuBLAS, cuDNN) rather
// than links: linking them costs every start of the binary ~140 ms in the dynamic loader, GPU or
// not, and lets a machine without them still run on the CPU.
#pragma once

#include <string>

#include "lib/common/status.h"

namespace ort {

/// Opens `soname` from the CUDA toolkit's library directory, else through the loader's search
/// path (LD_LIBRARY_PATH: pip wheels of cuDNN, say). The library stays loaded for the life of
/// the process.
Result<void*> OpenCudaLibrary(const std::string& soname);

/// Looks up `name` in `library` into `function`; false when it is missing.
bool ResolveSymbol(void* library, const char* name, void** function);

template <typename F>
bool Resolve(void* library, const char* name, F* function) {
  void* address = nullptr;
  const bool found = ResolveSymbol(library, name, &address);
  *function = reinterpret_cast<F>(address);
  return found;
}

}  // namespace ort
