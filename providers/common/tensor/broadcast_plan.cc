#include "providers/common/tensor/broadcast_plan.h"

#include <algorithm>

namespace ort {

int64_t BroadcastPlan::OuterCount() const {
  int64_t count = 1;
  for (int64_t d : outer_dims) count *= d;
  return output_shape.NumElements() == 0 ? 0 : count;
}

Result<BroadcastPlan> MakeBroadcastPlan(std::span<const TensorShape> shapes) {
  BroadcastPlan plan;
  size_t rank = 0;
  for (const auto& shape : shapes) rank = std::max(rank, shape.rank());
  std::vector<int64_t> out(rank, 1);
  for (const auto& shape : shapes) {
    const size_t pad = rank - shape.rank();
    for (size_t i = 0; i < shape.rank(); ++i) {
      const int64_t d = shape[i];
      int64_t& o = out[pad + i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string list;
      for (const auto& s : shapes) list += (list.empty() ? "" : " and ") + s.ToString();
      return ORT_ERROR(kInvalidArgument, "shapes {} cannot be broadcast together", list);
    }
  }
  plan.output_shape = TensorShape(out);

  // Per input, strides aligned to the output rank (0 where the input broadcasts).
  const size_t inputs = shapes.size();
  std::vector<std::vector<int64_t>> strides(inputs, std::vector<int64_t>(rank, 0));
  for (size_t k = 0; k < inputs; ++k) {
    const auto& shape = shapes[k];
    const size_t pad = rank - shape.rank();
    int64_t stride = 1;
    for (size_t i = shape.rank(); i-- > 0;) {
      strides[k][pad + i] = shape[i] == 1 ? 0 : stride;
      stride *= shape[i];
    }
  }
  // Drop size-1 output dimensions and merge neighbours that every input walks alike.
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> merged(inputs);
  for (size_t i = 0; i < rank; ++i) {
    if (out[i] == 1) continue;
    bool mergeable = !dims.empty();
    for (size_t k = 0; k < inputs && mergeable; ++k) {
      mergeable = merged[k].back() == strides[k][i] * out[i];
    }
    if (mergeable) {
      dims.back() *= out[i];
      for (size_t k = 0; k < inputs; ++k) merged[k].back() = strides[k][i];
    } else {
      dims.push_back(out[i]);
      for (size_t k = 0; k < inputs; ++k) merged[k].push_back(strides[k][i]);
    }
  }
  if (dims.empty()) {
    dims.push_back(1);
    for (size_t k = 0; k < inputs; ++k) merged[k].push_back(0);
  }
  plan.inner = dims.back();
  plan.inner_strides.resize(inputs);
  for (size_t k = 0; k < inputs; ++k) {
    plan.inner_strides[k] = merged[k].back() == 0 ? 0 : 1;
    merged[k].pop_back();
  }
  dims.pop_back();
  plan.outer_dims = std::move(dims);
  plan.outer_strides = std::move(merged);
  return plan;
}

}  // namespace ort
