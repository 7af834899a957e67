// Expansion of ONNX function ops: a node no provider has a kernel for, whose op onnx defines as a
// function (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss, MeanVarianceNormalization, ...),
// is replaced by the function's body, as ONNX Runtime does.
#pragma once

#include <functional>

#include "lib/common/status.h"
#include "lib/ir/model.h"

namespace ort {

/// Expands, in the main graph and in subgraphs, every node for which `has_kernel` is false and
/// onnx has a function body; repeats on the inserted nodes. Re-infers types when anything was
/// expanded. Nodes without kernel or function are left for partitioning to report.
Status ExpandFunctionNodes(Model& model, const std::function<bool(const Node&)>& has_kernel);

}  // namespace ort
