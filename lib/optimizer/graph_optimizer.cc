#include "lib/optimizer/graph_optimizer.h"

#include "lib/common/logging.h"
#include "lib/ir/graph_validation.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

// A level is re-run while it keeps changing the graph, at most this many times.
constexpr int kMaxIterationsPerLevel = 10;

}  // namespace

std::vector<std::unique_ptr<GraphTransformer>> BuiltInPasses() {
  std::vector<std::unique_ptr<GraphTransformer>> passes;
  passes.push_back(CreateEliminateIdentity());
  return passes;
}

Status OptimizeGraph(Model& model, OptimizationLevel level,
                     std::span<IExecutionProvider* const> providers) {
  if (level == OptimizationLevel::kDisable) return Status::OK();
  const auto passes = BuiltInPasses();
  OptimizerContext context{providers};
  for (OptimizationLevel current :
       {OptimizationLevel::kBasic, OptimizationLevel::kExtended, OptimizationLevel::kAll}) {
    if (static_cast<int>(current) > static_cast<int>(level)) break;
    for (int iteration = 0; iteration < kMaxIterationsPerLevel; ++iteration) {
      bool level_changed = false;
      for (const auto& pass : passes) {
        if (pass->level() != current) continue;
        bool changed = false;
        Status status = pass->Apply(model.graph(), context, changed);
        if (!status.ok()) return status.WithContext("optimizer pass '" + pass->name() + "'");
        if (!changed) continue;
        level_changed = true;
        model.graph().ResolveOuterScope();
        status = ValidateGraph(model.graph());
        if (!status.ok()) {
          return status.WithContext("graph invalid after optimizer pass '" + pass->name() + "'");
        }
        ORT_LOG_VERBOSE("optimizer pass '{}' changed the graph", pass->name());
      }
      if (!level_changed) break;
    }
  }
  return Status::OK();
}

}  // namespace ort
