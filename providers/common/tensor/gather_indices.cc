#include "providers/common/tensor/gather_indices.h"

namespace ort {

Result<GatherPlan> PlanGather(const KernelContext& context, const Tensor& data,
                              const Tensor& indices, int64_t axis) {
  const TensorShape& shape = data.shape();
  auto normalized = NormalizeAxis(axis, shape.rank());
  if (!normalized.ok()) return context.Error("{}", normalized.status().message());
  GatherPlan plan;
  plan.axis = *normalized;
  plan.dim = shape[plan.axis];
  plan.outer = shape.SizeToDimension(plan.axis);
  plan.inner = shape.SizeFromDimension(plan.axis + 1);
  auto read = ReadInt64Values(indices);
  if (!read.ok()) return context.Error("indices: {}", read.status().message());
  plan.positions = std::move(read).value();
  for (int64_t& position : plan.positions) {
    if (position < -plan.dim || position >= plan.dim) {
      return context.Error("index {} is out of range for axis {} of size {}", position, plan.axis,
                           plan.dim);
    }
    if (position < 0) position += plan.dim;
  }
  plan.output_dims.assign(shape.dims().begin(), shape.dims().begin() + plan.axis);
  plan.output_dims.insert(plan.output_dims.end(), indices.shape().dims().begin(),
                          indices.shape().dims().end());
  plan.output_dims.insert(plan.output_dims.end(), shape.dims().begin() + plan.axis + 1,
                          shape.dims().end());
  return plan;
}

}  // namespace ort
