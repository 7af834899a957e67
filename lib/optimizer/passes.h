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
std::unique_ptr<GraphTransformer> CreateCommonSubexpressionElimination();
std::unique_ptr<GraphTransformer> CreateReshapeFusion();
std::unique_ptr<GraphTransformer> CreateNchwcLayout();

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
std::unique_ptr<RewriteRule> CreateFuseHardSwishRule();
std::unique_ptr<RewriteRule> CreateFuseMatMulAddIntoGemmRule();

// Rewrite rules of the extended level: fusions into com.microsoft contrib ops.
std::unique_ptr<RewriteRule> CreateFuseGeluRule();
std::unique_ptr<RewriteRule> CreateFuseFastGeluRule();
std::unique_ptr<RewriteRule> CreateFuseLayerNormRule();
std::unique_ptr<RewriteRule> CreateFuseConvActivationRule();
std::unique_ptr<RewriteRule> CreateFuseGemmActivationRule();
std::unique_ptr<RewriteRule> CreateFuseAttentionRule();
std::unique_ptr<RewriteRule> CreateFuseEmbedLayerNormRule();
std::unique_ptr<RewriteRule> CreateFuseBiasGeluRule();
std::unique_ptr<RewriteRule> CreateFuseSkipLayerNormRule();
std::unique_ptr<RewriteRule> CreateFuseMatMulScaleTransposeRule();

// Rewrite rules of the all level (layout- and provider-specific fusions).
std::unique_ptr<RewriteRule> CreateFuseConvAddActivationRule();

}  // namespace ort
