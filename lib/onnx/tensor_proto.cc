#include "lib/onnx/tensor_proto.h"

#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace ort {
namespace {

Result<DataType> CheckedDataType(int32_t value, const std::string& tensor_name) {
  if (!IsKnownDataType(value)) {
    return ORT_ERROR(kInvalidModel, "tensor '{}' has unsupported data type {}", tensor_name, value);
  }
  return static_cast<DataType>(value);
}

Result<TensorShape> ShapeOf(const onnx::TensorProto& proto, DataType type) {
  std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  TensorShape shape(std::move(dims));
  if (!shape.IsValid()) {
    return ORT_ERROR(kInvalidModel, "tensor '{}' has a negative dimension in {}", proto.name(),
                     shape.ToString());
  }
  auto bytes = TensorBytes(type, shape);
  if (!bytes.ok()) return bytes.status().WithContext(fmt::format("tensor '{}'", proto.name()));
  return shape;
}

// Whether the typed fields hold at least as many values as `shape` needs: checked before the
// tensor is allocated, since dims are free to claim terabytes that the proto does not hold.
Status CheckTypedCount(const onnx::TensorProto& proto, DataType type, const TensorShape& shape) {
  const int64_t stored = int64_t{proto.float_data_size()} + proto.double_data_size() +
                         proto.int32_data_size() + proto.int64_data_size() +
                         proto.uint64_data_size() + proto.string_data_size();
  const int64_t per_element = type == DataType::kComplex64 || type == DataType::kComplex128 ? 2 : 1;
  const int64_t needed = IsFourBit(type)
                             ? static_cast<int64_t>(StorageBytes(type, shape.NumElements()))
                             : shape.NumElements();
  if (needed > stored / per_element) {
    return ORT_ERROR(kInvalidModel, "tensor '{}' ({}{}) holds {} values, its shape needs {}",
                     proto.name(), DataTypeName(type), shape.ToString(), stored,
                     CheckedMul(needed, per_element).value_or(needed));
  }
  return Status::OK();
}

// Copies typed repeated-field data (float_data, int32_data, ...) into `tensor`.
// `multiplier` values per element; the 4-bit types take one value per packed byte.
template <typename Target, typename Field>
Status CopyField(const Field& field, Tensor& tensor, const std::string& name, int64_t multiplier) {
  const int64_t expected =
      IsFourBit(tensor.dtype())
          ? static_cast<int64_t>(StorageBytes(tensor.dtype(), tensor.NumElements()))
          : tensor.NumElements() * multiplier;
  if (field.size() != expected) {
    return ORT_ERROR(kInvalidModel, "tensor '{}' ({}) holds {} values, its shape needs {}", name,
                     tensor.Describe(), field.size(), expected);
  }
  auto* out = static_cast<Target*>(tensor.MutableRawData());
  for (int64_t i = 0; i < expected; ++i)
    out[i] = static_cast<Target>(field.Get(static_cast<int>(i)));
  return Status::OK();
}

Status CopyTypedData(const onnx::TensorProto& proto, Tensor& tensor) {
  const std::string& name = proto.name();
  switch (tensor.dtype()) {
    case DataType::kFloat:
      return CopyField<float>(proto.float_data(), tensor, name, 1);
    case DataType::kComplex64:
      return CopyField<float>(proto.float_data(), tensor, name, 2);
    case DataType::kDouble:
      return CopyField<double>(proto.double_data(), tensor, name, 1);
    case DataType::kComplex128:
      return CopyField<double>(proto.double_data(), tensor, name, 2);
    case DataType::kInt64:
      return CopyField<int64_t>(proto.int64_data(), tensor, name, 1);
    case DataType::kUint64:
      return CopyField<uint64_t>(proto.uint64_data(), tensor, name, 1);
    case DataType::kUint32:
      return CopyField<uint32_t>(proto.uint64_data(), tensor, name, 1);
    case DataType::kInt32:
      return CopyField<int32_t>(proto.int32_data(), tensor, name, 1);
    case DataType::kInt16:
      return CopyField<int16_t>(proto.int32_data(), tensor, name, 1);
    case DataType::kUint16:
    case DataType::kFloat16:
    case DataType::kBFloat16:
      return CopyField<uint16_t>(proto.int32_data(), tensor, name, 1);
    case DataType::kInt8:
      return CopyField<int8_t>(proto.int32_data(), tensor, name, 1);
    case DataType::kUint8:
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kUint4:
    case DataType::kInt4:
      return CopyField<uint8_t>(proto.int32_data(), tensor, name, 1);
    case DataType::kBool: {
      ORT_RETURN_IF_ERROR(CopyField<uint8_t>(proto.int32_data(), tensor, name, 1));
      auto* values = static_cast<uint8_t*>(tensor.MutableRawData());
      for (int64_t i = 0; i < tensor.NumElements(); ++i) values[i] = values[i] != 0;
      return Status::OK();
    }
    case DataType::kString: {
      if (proto.string_data_size() != tensor.NumElements()) {
        return ORT_ERROR(kInvalidModel, "tensor '{}' ({}) holds {} strings", name,
                         tensor.Describe(), proto.string_data_size());
      }
      auto* out = tensor.MutableData<std::string>();
      for (int i = 0; i < proto.string_data_size(); ++i) out[i] = proto.string_data(i);
      return Status::OK();
    }
    case DataType::kUndefined:
      break;
  }
  return ORT_ERROR(kInvalidModel, "tensor '{}' has an undefined data type", name);
}

Status CheckRawSize(const onnx::TensorProto& proto, DataType type, const TensorShape& shape,
                    size_t bytes) {
  const size_t expected = StorageBytes(type, shape.NumElements());
  if (bytes != expected) {
    return ORT_ERROR(kInvalidModel, "tensor '{}' ({}{}) has {} bytes of data, expected {}",
                     proto.name(), DataTypeName(type), shape.ToString(), bytes, expected);
  }
  return Status::OK();
}

bool IsExternal(const onnx::TensorProto& proto) {
  return proto.data_location() == onnx::TensorProto_DataLocation_EXTERNAL;
}

Result<Tensor> Convert(onnx::TensorProto& proto, ExternalDataResolver* external, bool may_steal) {
  ORT_ASSIGN_OR_RETURN(DataType type, CheckedDataType(proto.data_type(), proto.name()));
  ORT_ASSIGN_OR_RETURN(TensorShape shape, ShapeOf(proto, type));
  if (proto.has_segment()) {
    return ORT_ERROR(kNotImplemented, "tensor '{}' uses segments, which are not supported",
                     proto.name());
  }
  if (IsExternal(proto)) {
    if (external == nullptr) {
      return ORT_ERROR(kInvalidModel,
                       "tensor '{}' refers to external data, which is not allowed here",
                       proto.name());
    }
    return external->Load(proto, type, std::move(shape));
  }
  if (type == DataType::kString && proto.has_raw_data()) {
    return ORT_ERROR(kInvalidModel, "string tensor '{}' cannot use raw_data", proto.name());
  }
  if (proto.has_raw_data()) {
    ORT_RETURN_IF_ERROR(CheckRawSize(proto, type, shape, proto.raw_data().size()));
    const size_t alignment = std::clamp<size_t>(ElementSize(type), 1, 16);
    if (may_steal && type != DataType::kBool && shape.NumElements() > 0 &&
        reinterpret_cast<uintptr_t>(proto.raw_data().data()) % alignment == 0) {
      std::shared_ptr<std::string> owner(proto.release_raw_data());
      return Tensor::Borrow(type, std::move(shape), owner->data(), owner->size(), owner);
    }
    ORT_ASSIGN_OR_RETURN(Tensor tensor, Tensor::Allocate(type, std::move(shape)));
    if (tensor.SizeInBytes() > 0) {
      std::memcpy(tensor.MutableRawData(), proto.raw_data().data(), tensor.SizeInBytes());
    }
    if (type == DataType::kBool) {
      auto* values = static_cast<uint8_t*>(tensor.MutableRawData());
      for (int64_t i = 0; i < tensor.NumElements(); ++i) values[i] = values[i] != 0;
    }
    return tensor;
  }
  ORT_RETURN_IF_ERROR(CheckTypedCount(proto, type, shape));
  ORT_ASSIGN_OR_RETURN(Tensor tensor, Tensor::Allocate(type, std::move(shape)));
  ORT_RETURN_IF_ERROR(CopyTypedData(proto, tensor));
  return tensor;
}

Result<std::filesystem::path> ResolveLocation(const std::filesystem::path& base,
                                              const std::string& location,
                                              const std::string& tensor_name) {
  const std::filesystem::path relative(location);
  if (location.empty() || relative.is_absolute() || relative.has_root_name() ||
      relative.has_root_directory()) {
    return ORT_ERROR(kInvalidModel,
                     "tensor '{}': external data location '{}' must be a relative path",
                     tensor_name, location);
  }
  for (const auto& part : relative) {
    if (part == "..") {
      return ORT_ERROR(kInvalidModel,
                       "tensor '{}': external data location '{}' escapes the model directory",
                       tensor_name, location);
    }
  }
  // The text checks above cannot see symlinks: a link inside the model's folder may point
  // anywhere (/etc/passwd), so containment is checked again on the resolved real paths.
  const std::filesystem::path joined = base / relative;
  std::error_code error;
  const std::filesystem::path real_base = std::filesystem::canonical(base, error);
  if (error) {
    return ORT_ERROR(kInvalidModel, "tensor '{}': cannot resolve the model directory '{}': {}",
                     tensor_name, base.string(), error.message());
  }
  const std::filesystem::path real_path = std::filesystem::canonical(joined, error);
  if (error) {
    return ORT_ERROR(kInvalidModel, "tensor '{}': external data file '{}': {}", tensor_name,
                     joined.string(), error.message());
  }
  const auto [base_end, path_it] =
      std::mismatch(real_base.begin(), real_base.end(), real_path.begin(), real_path.end());
  if (base_end != real_base.end() || path_it == real_path.end()) {
    return ORT_ERROR(kInvalidModel,
                     "tensor '{}': external data location '{}' resolves to '{}', outside the "
                     "model directory '{}'",
                     tensor_name, location, real_path.string(), real_base.string());
  }
  if (!std::filesystem::is_regular_file(real_path, error)) {
    return ORT_ERROR(kInvalidModel,
                     "tensor '{}': external data location '{}' is not a regular file", tensor_name,
                     location);
  }
  return real_path;
}

}  // namespace

Result<Tensor> ExternalDataResolver::Load(const onnx::TensorProto& proto, DataType type,
                                          TensorShape shape) {
  std::string location;
  int64_t offset = 0;
  int64_t length = -1;
  for (const auto& entry : proto.external_data()) {
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset" || entry.key() == "length") {
      char* end = nullptr;
      const long long parsed = std::strtoll(entry.value().c_str(), &end, 10);
      if (end == entry.value().c_str() || *end != '\0' || parsed < 0) {
        return ORT_ERROR(kInvalidModel, "tensor '{}': bad external data {} '{}'", proto.name(),
                         entry.key(), entry.value());
      }
      (entry.key() == "offset" ? offset : length) = parsed;
    }
  }
  if (type == DataType::kString) {
    return ORT_ERROR(kInvalidModel, "string tensor '{}' cannot use external data", proto.name());
  }
  ORT_ASSIGN_OR_RETURN(std::filesystem::path path,
                       ResolveLocation(base_directory_, location, proto.name()));
  auto& file = files_[path.string()];
  if (!file) {
    auto opened = MappedFile::Open(path.string());
    if (!opened.ok()) {
      return opened.status().WithContext("external data of tensor '" + proto.name() + "'");
    }
    file = std::move(opened).value();
  }
  const size_t needed = StorageBytes(type, shape.NumElements());
  if (length < 0) length = static_cast<int64_t>(needed);
  ORT_RETURN_IF_ERROR(CheckRawSize(proto, type, shape, static_cast<size_t>(length)));
  if (static_cast<uint64_t>(offset) + static_cast<uint64_t>(length) > file->size()) {
    return ORT_ERROR(kInvalidModel,
                     "tensor '{}': external data [{}, {}) lies beyond the end of '{}' ({} bytes)",
                     proto.name(), offset, offset + length, path.string(), file->size());
  }
  const char* data = file->data() + offset;
  if (needed == 0) return Tensor::Allocate(type, std::move(shape));
  if (reinterpret_cast<uintptr_t>(data) % std::clamp<size_t>(ElementSize(type), 1, 16) != 0) {
    // Misaligned data would make typed loads undefined behaviour: copy it once instead.
    ORT_ASSIGN_OR_RETURN(Tensor tensor, Tensor::Allocate(type, std::move(shape)));
    std::memcpy(tensor.MutableRawData(), data, needed);
    return tensor;
  }
  return Tensor::Borrow(type, std::move(shape), const_cast<char*>(data), needed,
                        MappedFile::RangeOwner(file, data, needed));
}

Status CheckTensorProtoData(const onnx::TensorProto& proto) {
  if (IsExternal(proto)) return Status::OK();
  ORT_ASSIGN_OR_RETURN(DataType type, CheckedDataType(proto.data_type(), proto.name()));
  ORT_ASSIGN_OR_RETURN(TensorShape shape, ShapeOf(proto, type));
  if (!proto.has_raw_data() || type == DataType::kString) return Status::OK();
  return CheckRawSize(proto, type, shape, proto.raw_data().size());
}

Result<Tensor> TensorFromProto(onnx::TensorProto& proto, ExternalDataResolver* external) {
  return Convert(proto, external, /*may_steal=*/true);
}

Result<Tensor> TensorFromProtoCopy(const onnx::TensorProto& proto, ExternalDataResolver* external) {
  return Convert(const_cast<onnx::TensorProto&>(proto), external, /*may_steal=*/false);
}

Result<Tensor> TensorFromSparseProto(const onnx::SparseTensorProto& proto,
                                     ExternalDataResolver* external, size_t max_dense_bytes) {
  ORT_ASSIGN_OR_RETURN(Tensor values, TensorFromProtoCopy(proto.values(), external));
  ORT_ASSIGN_OR_RETURN(Tensor indices, TensorFromProtoCopy(proto.indices(), external));
  if (IsFourBit(values.dtype())) {
    return ORT_ERROR(kNotImplemented, "sparse tensor '{}': {} values are not supported",
                     proto.values().name(), DataTypeName(values.dtype()));
  }
  TensorShape shape(std::vector<int64_t>(proto.dims().begin(), proto.dims().end()));
  const Result<size_t> dense_bytes = TensorBytes(values.dtype(), shape);
  if (!dense_bytes.ok()) {
    return dense_bytes.status().WithContext("sparse tensor '" + proto.values().name() + "'");
  }
  if (*dense_bytes > max_dense_bytes) {
    return ORT_ERROR(kInvalidModel,
                     "sparse tensor '{}': its dense form {}{} would need {}, above the limit of {}",
                     proto.values().name(), DataTypeName(values.dtype()), shape.ToString(),
                     FormatBytes(*dense_bytes), FormatBytes(max_dense_bytes));
  }
  ORT_ASSIGN_OR_RETURN(Tensor dense, Tensor::Allocate(values.dtype(), shape));
  if (dense.SizeInBytes() > 0 && values.dtype() != DataType::kString) {
    std::memset(dense.MutableRawData(), 0, dense.SizeInBytes());
  }
  ORT_ASSIGN_OR_RETURN(std::vector<int64_t> index_values, ReadInt64Values(indices));
  const int64_t count = values.NumElements();
  const size_t rank = shape.rank();
  const bool coordinate_form = indices.shape().rank() == 2;
  ORT_RETURN_IF_NOT(static_cast<int64_t>(index_values.size()) ==
                        count * (coordinate_form ? static_cast<int64_t>(rank) : 1),
                    "sparse tensor '{}' has {} indices for {} values", proto.values().name(),
                    index_values.size(), count);
  const std::vector<int64_t> strides = ContiguousStrides(shape);
  const size_t element = ElementSize(values.dtype());
  for (int64_t i = 0; i < count; ++i) {
    int64_t flat = 0;
    if (coordinate_form) {
      for (size_t d = 0; d < rank; ++d) flat += index_values[i * rank + d] * strides[d];
    } else {
      flat = index_values[i];
    }
    ORT_RETURN_IF_NOT(flat >= 0 && flat < dense.NumElements(),
                      "sparse tensor '{}' has an index out of range", proto.values().name());
    if (values.dtype() == DataType::kString) {
      dense.MutableData<std::string>()[flat] = values.Data<std::string>()[i];
    } else {
      std::memcpy(static_cast<char*>(dense.MutableRawData()) + flat * element,
                  static_cast<const char*>(values.RawData()) + i * element, element);
    }
  }
  return dense;
}

void TensorToProto(const Tensor& tensor, const std::string& name, onnx::TensorProto* proto) {
  proto->Clear();
  proto->set_name(name);
  proto->set_data_type(static_cast<int32_t>(tensor.dtype()));
  for (int64_t d : tensor.shape().dims()) proto->add_dims(d);
  if (tensor.dtype() == DataType::kString) {
    for (const auto& text : tensor.Span<std::string>()) proto->add_string_data(text);
    return;
  }
  proto->set_raw_data(tensor.RawData(), tensor.SizeInBytes());
}

Result<ValueType> ValueTypeFromProto(const onnx::TypeProto& proto) {
  switch (proto.value_case()) {
    case onnx::TypeProto::kTensorType:
    case onnx::TypeProto::kSparseTensorType: {
      const bool sparse = proto.value_case() == onnx::TypeProto::kSparseTensorType;
      const int32_t elem =
          sparse ? proto.sparse_tensor_type().elem_type() : proto.tensor_type().elem_type();
      const bool has_shape =
          sparse ? proto.sparse_tensor_type().has_shape() : proto.tensor_type().has_shape();
      const auto& shape_proto =
          sparse ? proto.sparse_tensor_type().shape() : proto.tensor_type().shape();
      ValueType type;
      type.kind = sparse ? ValueType::Kind::kSparseTensor : ValueType::Kind::kTensor;
      type.elem_type = IsKnownDataType(elem) ? static_cast<DataType>(elem) : DataType::kUndefined;
      if (has_shape) {
        SymbolicShape shape;
        for (const auto& dim : shape_proto.dim()) {
          if (dim.has_dim_value()) {
            shape.push_back(Dimension::Known(dim.dim_value()));
          } else {
            shape.push_back(Dimension::Symbol(dim.dim_param()));
          }
        }
        type.shape = std::move(shape);
      }
      return type;
    }
    case onnx::TypeProto::kSequenceType: {
      ORT_ASSIGN_OR_RETURN(ValueType element,
                           ValueTypeFromProto(proto.sequence_type().elem_type()));
      return ValueType::SequenceOf(std::move(element));
    }
    case onnx::TypeProto::kOptionalType: {
      ORT_ASSIGN_OR_RETURN(ValueType element,
                           ValueTypeFromProto(proto.optional_type().elem_type()));
      return ValueType::OptionalOf(std::move(element));
    }
    case onnx::TypeProto::kMapType: {
      ORT_ASSIGN_OR_RETURN(ValueType value, ValueTypeFromProto(proto.map_type().value_type()));
      ValueType type;
      type.kind = ValueType::Kind::kMap;
      const int32_t key = proto.map_type().key_type();
      type.elem_type = IsKnownDataType(key) ? static_cast<DataType>(key) : DataType::kUndefined;
      type.element = std::make_shared<const ValueType>(std::move(value));
      return type;
    }
    default:
      break;
  }
  return ValueType();
}

void ValueTypeToProto(const ValueType& type, onnx::TypeProto* proto) {
  proto->Clear();
  switch (type.kind) {
    case ValueType::Kind::kTensor:
    case ValueType::Kind::kSparseTensor: {
      auto fill = [&type](auto* tensor) {
        tensor->set_elem_type(static_cast<int32_t>(type.elem_type));
        if (!type.shape) return;
        auto* shape = tensor->mutable_shape();
        for (const auto& dim : *type.shape) {
          auto* d = shape->add_dim();
          if (dim.IsKnown()) {
            d->set_dim_value(dim.value);
          } else if (!dim.param.empty()) {
            d->set_dim_param(dim.param);
          }
        }
      };
      if (type.kind == ValueType::Kind::kTensor) {
        fill(proto->mutable_tensor_type());
      } else {
        fill(proto->mutable_sparse_tensor_type());
      }
      break;
    }
    case ValueType::Kind::kSequence:
      if (type.element) {
        ValueTypeToProto(*type.element, proto->mutable_sequence_type()->mutable_elem_type());
      }
      break;
    case ValueType::Kind::kOptional:
      if (type.element) {
        ValueTypeToProto(*type.element, proto->mutable_optional_type()->mutable_elem_type());
      }
      break;
    case ValueType::Kind::kMap:
      proto->mutable_map_type()->set_key_type(static_cast<int32_t>(type.elem_type));
      if (type.element) {
        ValueTypeToProto(*type.element, proto->mutable_map_type()->mutable_value_type());
      }
      break;
    case ValueType::Kind::kUnknown:
      break;
  }
}

Result<Value> ValueFromSequenceProto(const onnx::SequenceProto& proto) {
  if (proto.elem_type() != onnx::SequenceProto_DataType_TENSOR &&
      proto.elem_type() != onnx::SequenceProto_DataType_UNDEFINED) {
    return ORT_ERROR(kNotImplemented, "sequence '{}': only sequences of tensors are supported",
                     proto.name());
  }
  TensorSequence sequence;
  for (const auto& tensor_proto : proto.tensor_values()) {
    ORT_ASSIGN_OR_RETURN(Tensor tensor, TensorFromProtoCopy(tensor_proto, nullptr));
    sequence.elem_type = tensor.dtype();
    sequence.tensors.push_back(std::move(tensor));
  }
  return Value(std::move(sequence));
}

Result<Value> ValueFromOptionalProto(const onnx::OptionalProto& proto) {
  switch (proto.elem_type()) {
    case onnx::OptionalProto_DataType_TENSOR: {
      if (!proto.has_tensor_value()) return Value(NoneValue{});
      ORT_ASSIGN_OR_RETURN(Tensor tensor, TensorFromProtoCopy(proto.tensor_value(), nullptr));
      return Value(std::move(tensor));
    }
    case onnx::OptionalProto_DataType_SEQUENCE:
      if (!proto.has_sequence_value()) return Value(NoneValue{});
      return ValueFromSequenceProto(proto.sequence_value());
    case onnx::OptionalProto_DataType_UNDEFINED:
      return Value(NoneValue{});
    default:
      break;
  }
  return ORT_ERROR(kNotImplemented, "optional '{}' of this element kind is not supported",
                   proto.name());
}

void ValueToSequenceProto(const Value& value, const std::string& name, onnx::SequenceProto* proto) {
  proto->Clear();
  proto->set_name(name);
  proto->set_elem_type(onnx::SequenceProto_DataType_TENSOR);
  for (const auto& tensor : value.sequence().tensors) {
    TensorToProto(tensor, "", proto->add_tensor_values());
  }
}

}  // namespace ort
