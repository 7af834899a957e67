// Reading and writing small parameter tensors (scales, biases, statistics) of any floating type
// in the precision a normalization kernel computes in; their type may differ from the data's.
#pragma once

#include <array>
#include <vector>

#include "lib/ir/tensor.h"

namespace ort {

/// The elements of a float, double, float16 or bfloat16 tensor converted to C.
template <typename C>
Result<std::vector<C>> ReadFloatParams(const Tensor& tensor) {
  std::vector<C> values(static_cast<size_t>(tensor.NumElements()));
  Status status = DispatchByType<FloatTypes>(tensor.dtype(), "parameter", [&]<typename T>() {
    const T* data = tensor.Data<T>();
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<C>(data[i]);
    return Status::OK();
  });
  if (!status.ok()) return status;
  return values;
}

/// The parameter tensor broadcast (numpy rules, trailing-aligned, one direction) to `target`,
/// converted to C; fails when its shape does not broadcast to `target`.
template <typename C>
Result<std::vector<C>> ExpandFloatParams(const Tensor& tensor, const TensorShape& target) {
  ORT_ASSIGN_OR_RETURN(std::vector<C> values, ReadFloatParams<C>(tensor));
  const TensorShape& shape = tensor.shape();
  if (shape == target) return values;
  const size_t rank = target.rank();
  std::vector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (size_t i = 0; i < shape.rank(); ++i) {
    const int64_t dim = shape[shape.rank() - 1 - i];
    const bool leading_one = i >= rank && dim == 1;
    if (!leading_one && (i >= rank || (dim != 1 && dim != target[rank - 1 - i]))) {
      return ORT_ERROR(kInvalidArgument, "shape {} does not broadcast to {}", shape.ToString(),
                       target.ToString());
    }
    if (i < rank && dim != 1) strides[rank - 1 - i] = stride;
    stride *= dim;
  }
  std::vector<C> expanded(static_cast<size_t>(target.NumElements()));
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (size_t i = 0; i < expanded.size(); ++i) {
    expanded[i] = values[offset];
    for (size_t d = rank; d-- > 0;) {
      offset += strides[d];
      if (++index[d] < target[d]) break;
      offset -= index[d] * strides[d];
      index[d] = 0;
    }
  }
  return expanded;
}

/// Stores `values` into a floating tensor of matching element count, converting to its type.
template <typename C>
Status WriteFloatParams(const std::vector<C>& values, Tensor& tensor) {
  return DispatchByType<FloatTypes>(tensor.dtype(), "parameter", [&]<typename T>() {
    T* data = tensor.MutableData<T>();
    for (size_t i = 0; i < values.size(); ++i) data[i] = static_cast<T>(values[i]);
    return Status::OK();
  });
}

/// Runs fn(widened, output) on float copies of half-precision (T) tensors: `widened` holds one
/// pointer per input (null for a null input) and fn writes `output`'s element count of floats,
/// which are then narrowed into `output`.
template <typename T, size_t kCount, typename Fn>
void ComputeInFloat(const std::array<const Tensor*, kCount>& inputs, Tensor& output, Fn&& fn) {
  std::array<std::vector<float>, kCount> copies;
  std::array<const float*, kCount> widened{};
  for (size_t i = 0; i < kCount; ++i) {
    const Tensor* input = inputs[i];
    if (input == nullptr) continue;
    const T* data = input->Data<T>();
    copies[i].assign(data, data + input->NumElements());
    widened[i] = copies[i].data();
  }
  std::vector<float> result(static_cast<size_t>(output.NumElements()));
  fn(widened, result.data());
  T* out = output.MutableData<T>();
  for (size_t i = 0; i < result.size(); ++i) out[i] = T(result[i]);
}

}  // namespace ort
