#include "lib/optimizer/graph_transformer.h"

#include <algorithm>

namespace ort {

bool GraphTransformer::ServesPreferred(std::span<IExecutionProvider* const> registered) const {
  if (providers_.empty()) return true;
  return !registered.empty() && std::find(providers_.begin(), providers_.end(),
                                          registered.front()->type()) != providers_.end();
}

Status GraphTransformer::ApplyToSubgraphs(Graph& graph, const OptimizerContext& context,
                                          bool& changed) const {
  for (Node* node : graph.Nodes()) {
    for (Graph* subgraph : node->Subgraphs()) {
      ORT_RETURN_IF_ERROR(Apply(*subgraph, context, changed));
    }
  }
  return Status::OK();
}

}  // namespace ort
