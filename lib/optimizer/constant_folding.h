// Constant folding as a pass of any name and level: constant_folding at the basic level, and
// fold_unfused_dequantize after the extended level's QDQ fusions.
#pragma once

#include <memory>
#include <string>

#include "lib/optimizer/graph_transformer.h"

namespace ort {

/// Folds every foldable node, keeping the DequantizeLinear nodes of QDQ groups for the fusions;
/// with `dequantize_only`, folds just the DequantizeLinear nodes of constants, QDQ groups or not.
std::unique_ptr<GraphTransformer> MakeConstantFolding(std::string name, OptimizationLevel level,
                                                      bool dequantize_only);

}  // namespace ort
