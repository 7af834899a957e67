// Checking a model's nodes against their ONNX schemas before anything trusts them: onnx's
// shape-inference functions, the optimizer's passes and the kernels index inputs, read attributes
// and divide by strides as the schema promises, so a node that breaks the promise is refused here,
// by name, instead of crashing one of them.
#pragma once

#include <onnx/onnx_pb.h>

#include "lib/common/status.h"

namespace ort {

/// Checks every node of `model`'s graph and subgraphs: op type present, arity and attributes as
/// the node's schema (for its domain's imported opset) declares, attribute values that inference
/// and kernels divide or index with in range (conv and pool geometry, Transpose perm, axes where
/// the input's rank is declared), control-flow bodies whose signatures fit the node, and node
/// outputs that neither repeat nor shadow a graph input or initializer. Ops onnx has no schema
/// for are only checked for the parts that do not need one.
Status ValidateNodes(const onnx::ModelProto& model);

}  // namespace ort
