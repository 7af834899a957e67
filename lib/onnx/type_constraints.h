// Checking each node's input types against its ONNX schema's type constraints once inference has
// typed the graph: kernels read all inputs bound to one type variable as the first one's element
// type, so a mismatch would be a wrong answer or a read past a smaller buffer, not an error.
#pragma once

#include "lib/common/status.h"
#include "lib/ir/graph.h"

namespace ort {

/// Errors, naming the node and both inputs, when inputs of a node in `graph` or its subgraphs
/// that share a schema type variable ('T' of Concat, Where, MatMul...) have different known
/// types, or when an input's known type is not one its schema allows. Nodes whose schema onnx
/// does not have at the graph's opset, and inputs whose type is unknown, are not checked.
Status CheckTypeConstraints(const Graph& graph);

}  // namespace ort
