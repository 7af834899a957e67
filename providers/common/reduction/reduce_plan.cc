#include "providers/common/reduction/reduce_plan.h"

namespace ort {
namespace {

std::vector<bool> ReducedFlags(size_t rank, std::span<const size_t> axes) {
  std::vector<bool> reduced(rank, false);
  for (size_t axis : axes) reduced[axis] = true;
  return reduced;
}

// Every offset reachable through `dims`/`strides`, in row-major order.
std::vector<int64_t> EnumerateOffsets(const std::vector<int64_t>& dims,
                                      const std::vector<int64_t>& strides) {
  std::vector<int64_t> offsets = {0};
  for (size_t d = 0; d < dims.size(); ++d) {
    std::vector<int64_t> next;
    next.reserve(offsets.size() * static_cast<size_t>(dims[d]));
    for (int64_t base : offsets) {
      for (int64_t i = 0; i < dims[d]; ++i) next.push_back(base + i * strides[d]);
    }
    offsets = std::move(next);
  }
  return offsets;
}

}  // namespace

TensorShape ReducedShape(const TensorShape& shape, std::span<const size_t> axes, bool keepdims) {
  const std::vector<bool> reduced = ReducedFlags(shape.rank(), axes);
  std::vector<int64_t> dims;
  for (size_t i = 0; i < shape.rank(); ++i) {
    if (!reduced[i]) {
      dims.push_back(shape[i]);
    } else if (keepdims) {
      dims.push_back(1);
    }
  }
  return TensorShape(std::move(dims));
}

ReducePlan MakeReducePlan(const TensorShape& shape, std::span<const size_t> axes, bool keepdims) {
  ReducePlan plan;
  plan.output_shape = ReducedShape(shape, axes, keepdims);
  const std::vector<bool> reduced = ReducedFlags(shape.rank(), axes);

  // Merge dimensions (size-1 ones dropped) into alternating kept/reduced groups.
  std::vector<int64_t> dims;
  std::vector<bool> flags;
  for (size_t i = 0; i < shape.rank(); ++i) {
    if (shape[i] == 1) continue;
    if (reduced[i]) plan.reduce_count *= shape[i];
    if (!flags.empty() && flags.back() == reduced[i]) {
      dims.back() *= shape[i];
    } else {
      dims.push_back(shape[i]);
      flags.push_back(reduced[i]);
    }
  }
  if (dims.empty()) {
    dims.push_back(1);
    flags.push_back(false);
  }
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size() - 1; i-- > 0;) strides[i] = strides[i + 1] * dims[i + 1];

  plan.run_reduced = flags.back();
  plan.run = dims.back();
  std::vector<int64_t> kept_dims, kept_strides, reduce_dims, reduce_strides;
  for (size_t i = 0; i + 1 < dims.size(); ++i) {
    (flags[i] ? reduce_dims : kept_dims).push_back(dims[i]);
    (flags[i] ? reduce_strides : kept_strides).push_back(strides[i]);
  }
  plan.kept_offsets = EnumerateOffsets(kept_dims, kept_strides);
  plan.reduce_offsets = EnumerateOffsets(reduce_dims, reduce_strides);
  return plan;
}

}  // namespace ort
