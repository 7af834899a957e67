#include "lib/framework/execution_provider.h"

namespace ort {

std::vector<NodeIndex> IExecutionProvider::GetCapability(const Graph& graph) const {
  std::vector<NodeIndex> claimed;
  for (const Node* node : graph.Nodes()) {
    if (node->provider().empty() && kernel_registry().Find(*node) != nullptr) {
      claimed.push_back(node->index());
    }
  }
  return claimed;
}

IExecutionProvider* FindFallbackProvider(std::span<IExecutionProvider* const> providers) {
  for (IExecutionProvider* provider : providers) {
    if (provider->IsFallback()) return provider;
  }
  return nullptr;
}

IExecutionProvider* FindProvider(std::span<IExecutionProvider* const> providers,
                                 std::string_view type) {
  for (IExecutionProvider* provider : providers) {
    if (provider->type() == type) return provider;
  }
  return nullptr;
}

Result<std::optional<double>> IExecutionProvider::TimeDeviceWork(
    const std::function<Status()>& work) const {
  ORT_RETURN_IF_ERROR(work());
  ORT_RETURN_IF_ERROR(Synchronize());
  return std::optional<double>();
}

}  // namespace ort
