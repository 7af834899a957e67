// Element types for models of an opset newer than the onnx library knows (its shape inference
// then infers nothing, and fusions and the NCHWc layout, which read types, would leave such a
// model alone). Each ai.onnx op's rule gives its outputs' element types from its inputs' or its
// attributes; the symbolic_shape_inference pass adds their shapes.
#pragma once

#include "lib/ir/graph.h"

namespace ort {

/// Records, in topological order, the element type of every ai.onnx node output of `graph` that
/// has no type yet and whose op has a rule (unknown rank); ops without one, and outputs whose
/// inputs have no type, stay untyped. Subgraphs are left as they are.
void InferElementTypes(Graph& graph);

}  // namespace ort
