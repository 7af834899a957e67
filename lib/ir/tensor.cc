#include "lib/ir/tensor.h"

#include <cstring>
#include <limits>
#include <new>

namespace ort {

Result<std::shared_ptr<TensorBuffer>> TensorBuffer::Allocate(
    const std::shared_ptr<IAllocator>& allocator, DataType type, int64_t count) {
  ORT_ASSIGN_OR_RETURN(const size_t bytes, CheckedStorageBytes(type, count));
  std::shared_ptr<TensorBuffer> buffer(new TensorBuffer());
  try {
    buffer->data_ = allocator->Alloc(bytes);
  } catch (const std::bad_alloc&) {
    // An allocator's own bookkeeping may throw; the caller gets the same error as for nullptr.
    buffer->data_ = nullptr;
  }
  if (buffer->data_ == nullptr) {
    return ORT_ERROR(kOutOfMemory, "failed to allocate {} ({} bytes) on {}", FormatBytes(bytes),
                     bytes, allocator->Info().ToString());
  }
  buffer->bytes_ = bytes;
  buffer->location_ = allocator->Info();
  buffer->allocator_ = allocator;
  if (type == DataType::kString) {
    auto* strings = static_cast<std::string*>(buffer->data_);
    for (int64_t i = 0; i < count; ++i) new (strings + i) std::string();
    buffer->string_count_ = count;
  }
  return buffer;
}

std::shared_ptr<TensorBuffer> TensorBuffer::Borrow(void* data, size_t bytes,
                                                   std::shared_ptr<const void> owner,
                                                   MemoryInfo location) {
  std::shared_ptr<TensorBuffer> buffer(new TensorBuffer());
  buffer->data_ = data;
  buffer->bytes_ = bytes;
  buffer->location_ = location;
  buffer->owner_ = std::move(owner);
  return buffer;
}

TensorBuffer::~TensorBuffer() {
  auto* strings = static_cast<std::string*>(data_);
  for (int64_t i = 0; i < string_count_; ++i) strings[i].~basic_string();
  if (allocator_) allocator_->Free(data_);
}

Result<size_t> TensorBytes(DataType type, const TensorShape& shape) {
  ORT_ASSIGN_OR_RETURN(const int64_t count, shape.CheckedNumElements());
  auto bytes = CheckedStorageBytes(type, count);
  if (!bytes.ok()) {
    return ORT_ERROR(kInvalidArgument, "a {}{} tensor needs 2^63 bytes or more", DataTypeName(type),
                     shape.ToString());
  }
  return bytes;
}

Result<Tensor> Tensor::Allocate(DataType type, TensorShape shape,
                                const std::shared_ptr<IAllocator>& allocator) {
  ORT_RETURN_IF_ERROR(TensorBytes(type, shape).status());
  Tensor tensor;
  ORT_ASSIGN_OR_RETURN(tensor.buffer_,
                       TensorBuffer::Allocate(allocator ? allocator : DefaultCpuAllocator(), type,
                                              shape.NumElements()));
  tensor.type_ = type;
  tensor.shape_ = std::move(shape);
  return tensor;
}

Result<Tensor> Tensor::Borrow(DataType type, TensorShape shape, void* data, size_t bytes,
                              std::shared_ptr<const void> owner, MemoryInfo location) {
  ORT_ASSIGN_OR_RETURN(const size_t needed, TensorBytes(type, shape));
  if (bytes < needed) {
    return ORT_ERROR(kInvalidArgument, "{} bytes do not hold a {}{} tensor ({} bytes needed)",
                     bytes, DataTypeName(type), shape.ToString(), needed);
  }
  Tensor tensor;
  tensor.type_ = type;
  tensor.shape_ = std::move(shape);
  tensor.buffer_ = TensorBuffer::Borrow(data, bytes, std::move(owner), location);
  return tensor;
}

const MemoryInfo& Tensor::location() const {
  static const MemoryInfo kHost;
  return buffer_ ? buffer_->location() : kHost;
}

Result<Tensor> Tensor::Reshaped(TensorShape shape) const {
  const auto count = shape.CheckedNumElements();
  if (!count.ok() || *count != NumElements()) {
    return ORT_ERROR(kInvalidArgument, "cannot view {} as shape {}", Describe(), shape.ToString());
  }
  Tensor view = *this;
  view.shape_ = std::move(shape);
  return view;
}

Result<Tensor> Tensor::Clone() const {
  ORT_ASSIGN_OR_RETURN(Tensor copy, Allocate(type_, shape_));
  ORT_RETURN_IF_ERROR(CopyTensorData(*this, copy));
  return copy;
}

std::string Tensor::Describe() const {
  return std::string(DataTypeName(type_)) + shape_.ToString();
}

Status CopyTensorData(const Tensor& source, Tensor& destination) {
  ORT_RETURN_IF_NOT(
      source.dtype() == destination.dtype() && source.NumElements() == destination.NumElements(),
      "cannot copy {} into {}", source.Describe(), destination.Describe());
  if (source.NumElements() == 0) return Status::OK();
  if (source.dtype() == DataType::kString) {
    const auto* from = source.Data<std::string>();
    auto* to = destination.MutableData<std::string>();
    for (int64_t i = 0; i < source.NumElements(); ++i) to[i] = from[i];
  } else if (source.RawData() != destination.RawData()) {
    std::memcpy(destination.MutableRawData(), source.RawData(), source.SizeInBytes());
  }
  return Status::OK();
}

Result<std::vector<int64_t>> ReadInt64Values(const Tensor& tensor) {
  const auto count = static_cast<size_t>(tensor.NumElements());
  if (tensor.dtype() == DataType::kInt64) {
    const int64_t* data = tensor.Data<int64_t>();
    return std::vector<int64_t>(data, data + count);
  }
  if (tensor.dtype() == DataType::kInt32) {
    const int32_t* data = tensor.Data<int32_t>();
    return std::vector<int64_t>(data, data + count);
  }
  return ORT_ERROR(kInvalidArgument, "expected an int64 or int32 tensor, got {}",
                   tensor.Describe());
}

}  // namespace ort
