#include "providers/provider_factory.h"

#include <algorithm>

#include "providers/cpu/cpu_provider.h"

namespace ort {

std::vector<std::string> AvailableProviders() { return {"cpu"}; }

Result<std::vector<std::unique_ptr<IExecutionProvider>>> CreateProviders(
    const std::vector<std::string>& names, const ProviderSettings& settings) {
  std::vector<std::unique_ptr<IExecutionProvider>> providers;
  bool has_cpu = false;
  for (const auto& name : names) {
    if (name == "cpu") {
      if (!has_cpu) providers.push_back(std::make_unique<CpuExecutionProvider>(settings.cpu));
      has_cpu = true;
    } else {
      const auto available = AvailableProviders();
      std::string list;
      for (const auto& entry : available) list += (list.empty() ? "" : ", ") + entry;
      return ORT_ERROR(kInvalidArgument, "unknown execution provider '{}' (available: {})", name,
                       list);
    }
  }
  if (!has_cpu) providers.push_back(std::make_unique<CpuExecutionProvider>(settings.cpu));
  return providers;
}

}  // namespace ort
