// Greedy partitioning: providers, in the user's priority order, claim the unassigned nodes they
// can run; whatever remains goes to the CPU provider, which must be in the list.
#pragma once

#include <span>

#include "lib/common/status.h"
#include "lib/framework/execution_provider.h"
#include "lib/ir/graph.h"

namespace ort {

/// Assigns every node of `graph` and its subgraphs to a provider (Node::provider). Errors name
/// the first node no provider can run and why.
Status PartitionGraph(Graph& graph, std::span<IExecutionProvider* const> providers);

}  // namespace ort
