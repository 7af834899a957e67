// The inputs of Where(condition, X, Y) and how they broadcast, shared by the CPU and CUDA
// kernels.
#pragma once

#include "lib/framework/op_kernel.h"
#include "providers/common/tensor/broadcast_plan.h"

namespace ort {

/// One call's inputs, checked, and the broadcast plan of (condition, X, Y) in that order.
struct WhereInputs {
  const Tensor* condition = nullptr;
  const Tensor* x = nullptr;
  const Tensor* y = nullptr;
  BroadcastPlan plan;
};

/// Reads inputs 0 to 2 of `context` (all required), checks that condition is bool and that X and
/// Y share a type, and plans their broadcast. Errors name the node (through `context`).
Result<WhereInputs> ReadWhereInputs(const KernelContext& context);

}  // namespace ort
