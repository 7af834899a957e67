#include "providers/common/logical/where_inputs.h"

namespace ort {

Result<WhereInputs> ReadWhereInputs(const KernelContext& context) {
  WhereInputs inputs;
  ORT_ASSIGN_OR_RETURN(inputs.condition, context.RequiredInput(0));
  ORT_ASSIGN_OR_RETURN(inputs.x, context.RequiredInput(1));
  ORT_ASSIGN_OR_RETURN(inputs.y, context.RequiredInput(2));
  if (inputs.condition->dtype() != DataType::kBool) {
    return context.Error("condition must be bool, got {}", inputs.condition->Describe());
  }
  if (inputs.x->dtype() != inputs.y->dtype()) {
    return context.Error("X {} and Y {} have different types", inputs.x->Describe(),
                         inputs.y->Describe());
  }
  const TensorShape shapes[] = {inputs.condition->shape(), inputs.x->shape(), inputs.y->shape()};
  auto plan = MakeBroadcastPlan(shapes);
  if (!plan.ok()) return context.Error("{}", plan.status().message());
  inputs.plan = std::move(*plan);
  return inputs;
}

}  // namespace ort
