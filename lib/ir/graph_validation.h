// Structural checks of a graph: every value read is defined in scope, no cycles. Run after
// loading and after every optimizer pass.
#pragma once

#include "lib/common/status.h"
#include "lib/ir/graph.h"

namespace ort {

/// Checks `graph` and its subgraphs; errors name the node and the value.
Status ValidateGraph(const Graph& graph);

}  // namespace ort
