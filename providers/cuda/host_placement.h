// Which of the nodes the CUDA kernels could run are better left to the host: the work is tiny and
// running it on the GPU would only add copies between devices.
#pragma once

#include <set>

#include "lib/framework/kernel_registry.h"
#include "lib/ir/graph.h"

namespace ort {

/// Shape, Size and the integer nodes computing only from their results and constants: their
/// readers (Reshape's shape, Slice's starts, ...) want them on the host.
std::set<NodeIndex> ShapeArithmeticNodes(const Graph& graph);

/// Removes from `device` (nodes of `graph` the device would run, with kernels in `registry`) those
/// that read only host values and whose results are read only on the host: by nodes not in
/// `device`, or through a host input of the reader's kernel (EmbedLayerNormalization's ids,
/// Expand's shape). The Cast of an int64 id input to int32 feeding an embedding stays on the host
/// instead of costing a copy up and a copy back. Results read by no node (graph outputs) do not
/// count, so a lone device node stays on the device. Repeats until nothing moves.
void KeepHostOnlyNodesOnHost(const Graph& graph, const KernelRegistry& registry,
                             std::set<NodeIndex>& device);

}  // namespace ort
