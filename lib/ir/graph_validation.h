// Structural checks of a graph: every value read is defined in scope and defined once, an
// initializer agrees with its recorded type, no cycles; and a graph's interface (what its callers
// feed and read) kept across rewrites. Run after loading and after every optimizer pass.
#pragma once

#include <vector>

#include "lib/common/status.h"
#include "lib/ir/graph.h"

namespace ort {

/// Checks `graph` and its subgraphs; errors name the node (Status::node) and the value.
Status ValidateGraph(const Graph& graph);

/// What the callers of a graph rely on: the inputs they feed (graph inputs without an
/// initializer) and the outputs they read, in order, with their types.
struct GraphInterface {
  std::vector<ValueInfo> inputs;
  std::vector<ValueInfo> outputs;
};

GraphInterface CaptureInterface(const Graph& graph);

/// Errors when `graph`'s interface contradicts `before` (taken from the same graph earlier): an
/// input or output added, dropped, renamed or reordered, or a type known before that is now
/// different or unknown (its kind, element type, rank or a known dimension). Types may become
/// more precise (an unknown dimension known). Errors about an output name its producer.
Status CheckInterface(const Graph& graph, const GraphInterface& before);

}  // namespace ort
