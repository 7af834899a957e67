// Concrete tensor shapes (every dimension known) and axis helpers.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/common/status.h"

namespace ort {

/// a * b, or nullopt when the product overflows int64. The one place dimension products are
/// checked: shape computations use it (or CheckedElementCount) before they trust a product.
std::optional<int64_t> CheckedMul(int64_t a, int64_t b);

/// The element count of `dims`, or an error naming the shape when a dimension is negative or
/// the product overflows int64.
Result<int64_t> CheckedElementCount(std::span<const int64_t> dims);

/// The dimensions of a tensor at run time. Rank 0 is a scalar with one element.
/// Invariant: a Tensor's shape passed CheckedElementCount when the tensor was made (Allocate,
/// Borrow, Reshaped), so the unchecked products below cannot overflow on a tensor's shape; a
/// shape computed from data must be checked (CheckedNumElements) before anything multiplies it.
class TensorShape {
 public:
  TensorShape() = default;
  TensorShape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  explicit TensorShape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
  explicit TensorShape(std::span<const int64_t> dims) : dims_(dims.begin(), dims.end()) {}

  size_t rank() const { return dims_.size(); }
  int64_t operator[](size_t axis) const { return dims_[axis]; }
  int64_t& operator[](size_t axis) { return dims_[axis]; }
  const std::vector<int64_t>& dims() const { return dims_; }
  std::vector<int64_t>& mutable_dims() { return dims_; }

  /// Product of all dimensions (1 for a scalar, 0 when any dimension is 0).
  int64_t NumElements() const { return SizeFromDimension(0); }
  /// NumElements, or an error when a dimension is negative or the product overflows int64.
  Result<int64_t> CheckedNumElements() const { return CheckedElementCount(dims_); }
  /// Product of dimensions [start, rank).
  int64_t SizeFromDimension(size_t start) const;
  /// Product of dimensions [0, end).
  int64_t SizeToDimension(size_t end) const;
  /// True when every dimension is >= 0.
  bool IsValid() const;

  /// "[1,3,224,224]".
  std::string ToString() const;

  bool operator==(const TensorShape& other) const { return dims_ == other.dims_; }
  bool operator!=(const TensorShape& other) const { return dims_ != other.dims_; }

 private:
  std::vector<int64_t> dims_;
};

/// Maps an axis in [-rank, rank) to [0, rank); errors name the axis and rank.
Result<size_t> NormalizeAxis(int64_t axis, size_t rank);

/// Row-major strides of `shape` in elements.
std::vector<int64_t> ContiguousStrides(const TensorShape& shape);

/// Numpy-style broadcast of two shapes, or an error naming both.
Result<TensorShape> BroadcastShapes(const TensorShape& a, const TensorShape& b);

}  // namespace ort
