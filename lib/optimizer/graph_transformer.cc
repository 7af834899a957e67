#include "lib/optimizer/graph_transformer.h"

namespace ort {

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
