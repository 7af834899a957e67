// Factories of the built-in optimizer passes and rewrite rules, one file each under
// lib/optimizer/, declared from the pass list (passes.inc).
#pragma once

#include <memory>

#include "lib/optimizer/graph_transformer.h"
#include "lib/optimizer/rewrite_rule.h"

namespace ort {

#define ORT_RULE_GROUP(name, level)
#define ORT_SESSION_RULE_GROUP(name, level)
#define ORT_RULE(Name) std::unique_ptr<RewriteRule> Create##Name##Rule();
#define ORT_PASS(Name) std::unique_ptr<GraphTransformer> Create##Name();
#include "lib/optimizer/passes.inc"
#undef ORT_RULE_GROUP
#undef ORT_SESSION_RULE_GROUP
#undef ORT_RULE
#undef ORT_PASS

}  // namespace ort
