// Concrete tensor shapes (every dimension known) and axis helpers.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "lib/common/status.h"

namespace ort {

/// The dimensions of a tensor at run time. Rank 0 is a scalar with one element.
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
