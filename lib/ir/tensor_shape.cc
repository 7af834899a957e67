#include "lib/ir/tensor_shape.h"

#include <algorithm>

namespace ort {

std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

Result<int64_t> CheckedElementCount(std::span<const int64_t> dims) {
  // The product of the nonzero dimensions must fit, not only the total: then every partial
  // product and stride of the shape fits too, even when a zero makes the total 0.
  int64_t nonzero = 1;
  bool empty = false;
  for (int64_t dim : dims) {
    if (dim < 0) {
      return ORT_ERROR(kInvalidArgument, "shape {} has a negative dimension",
                       TensorShape(dims).ToString());
    }
    if (dim == 0) {
      empty = true;
      continue;
    }
    auto product = CheckedMul(nonzero, dim);
    if (!product) {
      return ORT_ERROR(kInvalidArgument,
                       "shape {} has too many elements (its dimensions multiply past int64)",
                       TensorShape(dims).ToString());
    }
    nonzero = *product;
  }
  return empty ? 0 : nonzero;
}

int64_t TensorShape::SizeFromDimension(size_t start) const {
  int64_t size = 1;
  for (size_t i = start; i < dims_.size(); ++i) size *= dims_[i];
  return size;
}

int64_t TensorShape::SizeToDimension(size_t end) const {
  int64_t size = 1;
  for (size_t i = 0; i < end && i < dims_.size(); ++i) size *= dims_[i];
  return size;
}

bool TensorShape::IsValid() const {
  return std::all_of(dims_.begin(), dims_.end(), [](int64_t d) { return d >= 0; });
}

std::string TensorShape::ToString() const {
  std::string text = "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(dims_[i]);
  }
  return text + "]";
}

Result<size_t> NormalizeAxis(int64_t axis, size_t rank) {
  const auto signed_rank = static_cast<int64_t>(rank);
  if (axis < -signed_rank || axis >= signed_rank) {
    return ORT_ERROR(kInvalidArgument, "axis {} is out of range for rank {}", axis, rank);
  }
  return static_cast<size_t>(axis < 0 ? axis + signed_rank : axis);
}

std::vector<int64_t> ContiguousStrides(const TensorShape& shape) {
  std::vector<int64_t> strides(shape.rank());
  int64_t stride = 1;
  for (size_t i = shape.rank(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

Result<TensorShape> BroadcastShapes(const TensorShape& a, const TensorShape& b) {
  const size_t rank = std::max(a.rank(), b.rank());
  std::vector<int64_t> dims(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.rank() ? 1 : a[i - (rank - a.rank())];
    const int64_t db = i < rank - b.rank() ? 1 : b[i - (rank - b.rank())];
    if (da == db || db == 1) {
      dims[i] = da;
    } else if (da == 1) {
      dims[i] = db;
    } else {
      return ORT_ERROR(kInvalidArgument, "shapes {} and {} cannot be broadcast", a.ToString(),
                       b.ToString());
    }
  }
  return TensorShape(std::move(dims));
}

}  // namespace ort
