#include "lib/session/partitioner.h"

#include "lib/common/logging.h"

namespace ort {

Status PartitionGraph(Graph& graph, std::span<IExecutionProvider* const> providers) {
  IExecutionProvider* fallback = FindFallbackProvider(providers);
  if (fallback == nullptr) {
    return ORT_ERROR(kInvalidArgument,
                     "no fallback provider is registered (the CPU provider takes what no other "
                     "provider runs)");
  }
  for (Node* node : graph.Nodes()) node->set_provider("");
  for (IExecutionProvider* provider : providers) {
    for (NodeIndex index : provider->GetCapability(graph)) {
      Node* node = graph.GetNode(index);
      if (node != nullptr && node->provider().empty()) node->set_provider(provider->type());
    }
  }
  for (Node* node : graph.Nodes()) {
    if (node->provider().empty()) {
      std::string reason;
      if (fallback->kernel_registry().Find(*node, &reason) == nullptr) {
        return ORT_ERROR(kNotImplemented, "no provider can run it ({})", reason)
            .WithNode(node->Describe());
      }
      node->set_provider(fallback->type());
    }
    for (Graph* subgraph : node->Subgraphs()) {
      ORT_RETURN_IF_ERROR(PartitionGraph(*subgraph, providers));
    }
  }
  return Status::OK();
}

}  // namespace ort
