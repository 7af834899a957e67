// Tensor: element type + shape + a shared, reference-counted buffer. Copies are shallow (they
// share the buffer); Clone() makes a deep copy. Kernels never write into their inputs.
#pragma once

#include <cassert>
#include <memory>
#include <span>
#include <string>

#include "lib/common/status.h"
#include "lib/ir/data_type.h"
#include "lib/ir/tensor_shape.h"
#include "lib/memory/allocator.h"

namespace ort {

/// Memory that holds tensor elements: allocated from an IAllocator, or borrowed (a memory-mapped
/// file, a protobuf string) and kept alive by an owner handle.
class TensorBuffer {
 public:
  /// Allocates room for `count` elements of `type`; string elements are constructed empty.
  static Result<std::shared_ptr<TensorBuffer>> Allocate(
      const std::shared_ptr<IAllocator>& allocator, DataType type, int64_t count);
  /// Wraps memory owned by someone else; `owner` keeps it alive as long as the buffer lives.
  static std::shared_ptr<TensorBuffer> Borrow(void* data, size_t bytes,
                                              std::shared_ptr<const void> owner,
                                              MemoryInfo location = {});

  ~TensorBuffer();
  TensorBuffer(const TensorBuffer&) = delete;
  TensorBuffer& operator=(const TensorBuffer&) = delete;

  void* data() const { return data_; }
  size_t size_bytes() const { return bytes_; }
  const MemoryInfo& location() const { return location_; }

 private:
  TensorBuffer() = default;

  void* data_ = nullptr;
  size_t bytes_ = 0;
  MemoryInfo location_;
  std::shared_ptr<IAllocator> allocator_;  // null when borrowed
  std::shared_ptr<const void> owner_;
  int64_t string_count_ = 0;  // strings to destroy
};

class Tensor {
 public:
  /// An undefined tensor (no type, no data).
  Tensor() = default;

  /// Allocates a tensor; the CPU default allocator when `allocator` is null.
  static Result<Tensor> Allocate(DataType type, TensorShape shape,
                                 const std::shared_ptr<IAllocator>& allocator = nullptr);
  /// A tensor over existing memory (`bytes` must cover the shape); `owner` keeps it alive.
  static Result<Tensor> Borrow(DataType type, TensorShape shape, void* data, size_t bytes,
                               std::shared_ptr<const void> owner, MemoryInfo location = {});
  /// A CPU tensor holding `values` (for tests and small constants).
  template <typename T>
  static Tensor FromVector(TensorShape shape, std::span<const T> values);
  template <typename T>
  static Tensor FromVector(TensorShape shape, std::initializer_list<T> values) {
    return FromVector<T>(std::move(shape), std::span<const T>(values.begin(), values.size()));
  }
  /// A CPU scalar (rank 0).
  template <typename T>
  static Tensor Scalar(T value) {
    return FromVector<T>(TensorShape{}, std::span<const T>(&value, 1));
  }

  bool IsDefined() const { return type_ != DataType::kUndefined; }
  DataType dtype() const { return type_; }
  const TensorShape& shape() const { return shape_; }
  int64_t NumElements() const { return shape_.NumElements(); }
  size_t SizeInBytes() const { return StorageBytes(type_, NumElements()); }
  const MemoryInfo& location() const;

  const void* RawData() const { return static_cast<const char*>(buffer_->data()) + offset_; }
  void* MutableRawData() { return static_cast<char*>(buffer_->data()) + offset_; }

  template <typename T>
  const T* Data() const {
    assert(DataTypeOf<T>() == type_);
    return static_cast<const T*>(RawData());
  }
  template <typename T>
  T* MutableData() {
    assert(DataTypeOf<T>() == type_);
    return static_cast<T*>(MutableRawData());
  }
  template <typename T>
  std::span<const T> Span() const {
    return {Data<T>(), static_cast<size_t>(NumElements())};
  }
  template <typename T>
  std::span<T> MutableSpan() {
    return {MutableData<T>(), static_cast<size_t>(NumElements())};
  }

  /// The same buffer seen with another shape of the same element count.
  Result<Tensor> Reshaped(TensorShape shape) const;
  /// A deep copy on the CPU.
  Result<Tensor> Clone() const;
  /// True when both tensors view the same buffer.
  bool SharesBufferWith(const Tensor& other) const { return buffer_ && buffer_ == other.buffer_; }
  /// True when no other tensor views this one's buffer, so that a kernel may overwrite it once
  /// this tensor is dead. Only meaningful while no other thread copies the tensor.
  bool HasExclusiveBuffer() const { return buffer_ && buffer_.use_count() == 1; }

  /// "float[1,3,224,224]".
  std::string Describe() const;

 private:
  DataType type_ = DataType::kUndefined;
  TensorShape shape_;
  std::shared_ptr<TensorBuffer> buffer_;
  size_t offset_ = 0;
};

/// The bytes a tensor of `type` and `shape` holds, or an error naming both when a dimension is
/// negative or the element count or byte size overflows int64 (see TensorShape's invariant).
Result<size_t> TensorBytes(DataType type, const TensorShape& shape);

/// Copies element data between CPU tensors of equal type and element count (strings included).
Status CopyTensorData(const Tensor& source, Tensor& destination);

/// Reads an integer tensor (int32 or int64) as int64 values, for shape-like inputs.
Result<std::vector<int64_t>> ReadInt64Values(const Tensor& tensor);

template <typename T>
Tensor Tensor::FromVector(TensorShape shape, std::span<const T> values) {
  Tensor tensor = Allocate(DataTypeOf<T>(), std::move(shape)).value();
  assert(static_cast<size_t>(tensor.NumElements()) == values.size());
  T* data = tensor.MutableData<T>();
  for (size_t i = 0; i < values.size(); ++i) data[i] = values[i];
  return tensor;
}

}  // namespace ort
