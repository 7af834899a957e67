#include "lib/optimizer/graph_transformer.h"

#include <algorithm>

namespace ort {

bool ProviderServes(const IExecutionProvider& provider, std::string_view name,
                    std::span<const MadeOp> made) {
  const KernelRegistry& kernels = provider.kernel_registry();
  return provider.AcceptsRewrite(name) &&
         std::all_of(made.begin(), made.end(),
                     [&kernels](const MadeOp& op) { return kernels.HasOp(op.domain, op.op_type); });
}

bool GraphTransformer::ServesPreferred(std::span<IExecutionProvider* const> registered) const {
  if (made_.empty()) return true;
  return !registered.empty() && ProviderServes(*registered.front(), name_, made_);
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
