// The optimizer driver: runs the passes of each level up to the session's level, in level order,
// repeating a level until nothing changes (bounded), validating the graph after every pass.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "lib/ir/model.h"
#include "lib/optimizer/graph_transformer.h"

namespace ort {

/// Every built-in pass, in the order they run within their level.
std::vector<std::unique_ptr<GraphTransformer>> BuiltInPasses();

/// Optimizes `model` in place up to `level`; errors name the failing pass.
Status OptimizeGraph(Model& model, OptimizationLevel level,
                     std::span<IExecutionProvider* const> providers);

}  // namespace ort
