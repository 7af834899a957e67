// Copies between devices, made explicit after partitioning (ONNX Runtime's MemcpyTransformer).
// A device provider's node reads its inputs on the device and writes its outputs there, except
// the inputs and outputs its kernel declares as host ones (shapes, axes, ...). Where a value is
// made on one side and read on the other, a MemcpyFromHost or MemcpyToHost node, assigned to the
// device provider, copies it: once per value and device, whatever the number of readers.
#pragma once

#include <span>

#include "lib/common/status.h"
#include "lib/framework/execution_provider.h"
#include "lib/ir/graph.h"

namespace ort {

inline constexpr char kMemcpyFromHost[] = "MemcpyFromHost";
inline constexpr char kMemcpyToHost[] = "MemcpyToHost";

struct MemcpyCounts {
  int to_device = 0;  // copies of values made on the host, on every run
  int to_host = 0;    // copies of values made on the device, on every run
  int weights = 0;    // constant initializers, which the session uploads once
};

/// Inserts the copy nodes into `graph` and its subgraphs, whose nodes must all be assigned.
/// Graph inputs, initializers, outer-scope values and graph outputs live on the host; a value a
/// device node makes and the host reads keeps its name on the host side (the device copy is
/// renamed), so graph outputs and subgraph reads stay as they were.
Result<MemcpyCounts> InsertMemcpyNodes(Graph& graph,
                                       std::span<IExecutionProvider* const> providers);

/// Registers MemcpyFromHost and MemcpyToHost in a device provider's registry; they copy with the
/// provider's data transfer.
void RegisterMemcpyKernels(KernelRegistry& registry);

}  // namespace ort
