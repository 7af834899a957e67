// Factories of the built-in optimizer passes and rewrite rules, one file each under
// lib/optimizer/; graph_optimizer.cc lists them in the order they run.
#pragma once

#include <memory>

#include "lib/optimizer/graph_transformer.h"
#include "lib/optimizer/rewrite_rule.h"

namespace ort {

// Graph transformers.
std::unique_ptr<GraphTransformer> CreateEliminateDeadNodes();
std::unique_ptr<GraphTransformer> CreateConstantFolding();

// Rewrite rules of the basic level.
std::unique_ptr<RewriteRule> CreateEliminateIdentityRule();
std::unique_ptr<RewriteRule> CreateEliminateNoopRule();
std::unique_ptr<RewriteRule> CreateEliminateUnsqueezeSqueezeRule();
std::unique_ptr<RewriteRule> CreateMergeTransposesRule();
std::unique_ptr<RewriteRule> CreateMergeReshapesRule();
std::unique_ptr<RewriteRule> CreateFuseConvBatchNormRule();
std::unique_ptr<RewriteRule> CreateFuseConvAddRule();
std::unique_ptr<RewriteRule> CreateFuseConvMulRule();
std::unique_ptr<RewriteRule> CreateFuseReluClipRule();
std::unique_ptr<RewriteRule> CreateFuseMatMulAddIntoGemmRule();

}  // namespace ort
