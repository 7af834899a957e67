#include "lib/session/partitioner.h"

#include "lib/common/logging.h"

namespace ort {
namespace {

IExecutionProvider* FindCpu(std::span<IExecutionProvider* const> providers) {
  for (IExecutionProvider* provider : providers) {
    if (provider->type() == "cpu") return provider;
  }
  return nullptr;
}

}  // namespace

Status PartitionGraph(Graph& graph, std::span<IExecutionProvider* const> providers) {
  IExecutionProvider* cpu = FindCpu(providers);
  if (cpu == nullptr) {
    return ORT_ERROR(kInvalidArgument, "the CPU provider must be registered as the fallback");
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
      if (cpu->kernel_registry().Find(*node, &reason) == nullptr) {
        return ORT_ERROR(kNotImplemented, "no provider can run it ({})", reason)
            .WithNode(node->Describe());
      }
      node->set_provider(cpu->type());
    }
    for (Graph* subgraph : node->Subgraphs()) {
      ORT_RETURN_IF_ERROR(PartitionGraph(*subgraph, providers));
    }
  }
  return Status::OK();
}

}  // namespace ort
