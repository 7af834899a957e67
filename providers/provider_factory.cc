#include "providers/provider_factory.h"

#include <algorithm>

#include "providers/cpu/cpu_provider.h"
#ifdef ORT_USE_CUDA
#include "providers/cuda/cuda_provider.h"
#endif

namespace ort {

std::vector<std::string> AvailableProviders() {
#ifdef ORT_USE_CUDA
  return {"cpu", "cuda"};
#else
  return {"cpu"};
#endif
}

Result<std::vector<std::unique_ptr<IExecutionProvider>>> CreateProviders(
    const std::vector<std::string>& names, const ProviderSettings& settings) {
  std::vector<std::unique_ptr<IExecutionProvider>> providers;
  bool has_cpu = false;
  for (const auto& name : names) {
    if (name == "cpu") {
      if (!has_cpu) providers.push_back(std::make_unique<CpuExecutionProvider>(settings.cpu));
      has_cpu = true;
#ifdef ORT_USE_CUDA
    } else if (name == "cuda") {
      CudaProviderOptions options;
      ORT_ASSIGN_OR_RETURN(options.precision, ParseMatrixPrecision(settings.cuda_precision));
      if (settings.without_device) {
        providers.push_back(std::make_unique<CudaExecutionProvider>(options));
      } else {
        ORT_ASSIGN_OR_RETURN(auto cuda, CreateCudaProvider(options));
        providers.push_back(std::move(cuda));
      }
#endif
    } else {
      const auto available = AvailableProviders();
      std::string list;
      for (const auto& entry : available) list += (list.empty() ? "" : ", ") + entry;
      return ORT_ERROR(kInvalidArgument, "unknown execution provider '{}' (available: {})", name,
                       list);
    }
  }
  if (settings.cuda_precision != "fp32" &&
      std::find(names.begin(), names.end(), "cuda") == names.end()) {
    return ORT_ERROR(kInvalidArgument,
                     "precision {} applies to the CUDA provider's matrix units; it needs -e cuda",
                     settings.cuda_precision);
  }
  if (!has_cpu) providers.push_back(std::make_unique<CpuExecutionProvider>(settings.cpu));
  return providers;
}

}  // namespace ort
