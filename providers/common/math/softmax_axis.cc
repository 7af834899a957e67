#include "providers/common/math/softmax_axis.h"

#include <algorithm>

namespace ort {

Status SoftmaxAxis::Parse(const KernelInfo& info) {
  flatten = info.opset() < 13;
  ORT_ASSIGN_OR_RETURN(axis, info.GetAttributeOr<int64_t>("axis", flatten ? 1 : -1));
  return Status::OK();
}

Result<SoftmaxBlocks> SoftmaxAxis::Resolve(const KernelContext& context,
                                           const TensorShape& shape) const {
  auto normalized = NormalizeAxis(axis, std::max<size_t>(shape.rank(), 1));
  if (!normalized.ok()) return context.Error("{}", normalized.status().message());
  SoftmaxBlocks blocks;
  if (shape.rank() == 0) return blocks;
  blocks.outer = shape.SizeToDimension(*normalized);
  blocks.length = flatten ? shape.SizeFromDimension(*normalized) : shape[*normalized];
  blocks.inner = flatten ? 1 : shape.SizeFromDimension(*normalized + 1);
  return blocks;
}

}  // namespace ort
