#include "lib/optimizer/graph_transformer.h"

#include <algorithm>

namespace ort {

bool GraphTransformer::ServesAny(std::span<IExecutionProvider* const> registered) const {
  if (providers_.empty()) return true;
  return std::any_of(registered.begin(), registered.end(), [this](const IExecutionProvider* p) {
    return std::find(providers_.begin(), providers_.end(), p->type()) != providers_.end();
  });
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
