#include "lib/io/tensor_file.h"

#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>

#include <filesystem>

#include "lib/common/file_writer.h"
#include "lib/common/mapped_file.h"
#include "lib/io/npy.h"
#include "lib/onnx/tensor_proto.h"

namespace ort {
namespace {

template <typename Proto>
Status ParseProto(const std::string& bytes, const std::string& path, std::string_view kind,
                  Proto* proto) {
  if (!proto->ParseFromString(bytes)) {
    return ORT_ERROR(kInvalidArgument, "'{}' is not a valid {} file (protobuf parsing failed)",
                     path, kind);
  }
  return Status::OK();
}

// numpy has no bfloat16, and onnx 1.12's test generator also stored bfloat16 tensors as uint16
// holding the raw bits: a uint16 file read for a bfloat16 input is the tensor it stands for.
Value AsDeclaredBfloat16(Value value, const ValueType* declared) {
  if (declared == nullptr || !declared->IsTensor() || declared->elem_type != DataType::kBFloat16 ||
      !value.IsTensor() || value.tensor().dtype() != DataType::kUint16) {
    return value;
  }
  auto bits = std::make_shared<Tensor>(std::move(value.mutable_tensor()));
  auto reinterpreted = Tensor::Borrow(DataType::kBFloat16, bits->shape(), bits->MutableRawData(),
                                      bits->SizeInBytes(), bits);
  return reinterpreted.ok() ? Value(std::move(*reinterpreted)) : Value(std::move(*bits));
}

}  // namespace

Result<NamedFileValue> ReadValueFile(const std::string& path, const ValueType* expected) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".npy") {
    ORT_ASSIGN_OR_RETURN(Tensor tensor, ReadNpy(path));
    return NamedFileValue{"", AsDeclaredBfloat16(Value(std::move(tensor)), expected)};
  }
  if (extension != ".pb") {
    return ORT_ERROR(kInvalidArgument, "'{}': unknown tensor file type (expected .npy or .pb)",
                     path);
  }
  ORT_ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path));
  const auto kind = expected ? expected->kind : ValueType::Kind::kTensor;
  if (kind == ValueType::Kind::kSequence) {
    onnx::SequenceProto proto;
    ORT_RETURN_IF_ERROR(ParseProto(bytes, path, "SequenceProto", &proto));
    auto value = ValueFromSequenceProto(proto);
    if (!value.ok()) return value.status().WithContext("'" + path + "'");
    return NamedFileValue{proto.name(), std::move(value).value()};
  }
  if (kind == ValueType::Kind::kOptional) {
    onnx::OptionalProto proto;
    ORT_RETURN_IF_ERROR(ParseProto(bytes, path, "OptionalProto", &proto));
    auto value = ValueFromOptionalProto(proto);
    if (!value.ok()) return value.status().WithContext("'" + path + "'");
    return NamedFileValue{proto.name(), std::move(value).value()};
  }
  onnx::TensorProto proto;
  ORT_RETURN_IF_ERROR(ParseProto(bytes, path, "TensorProto", &proto));
  if (proto.data_type() == 0) {
    return ORT_ERROR(kInvalidArgument, "'{}' is not a TensorProto file (no data type)", path);
  }
  auto tensor = TensorFromProto(proto, nullptr);
  if (!tensor.ok()) return tensor.status().WithContext("'" + path + "'");
  return NamedFileValue{proto.name(),
                        AsDeclaredBfloat16(Value(std::move(tensor).value()), expected)};
}

Status WriteProtoFile(const std::string& path, const std::string& name, const Value& value,
                      const ValueType* declared) {
  if (value.IsEmpty()) {
    return ORT_ERROR(kInvalidArgument, "output '{}' holds no value to write", name);
  }
  std::string bytes;
  // An optional output is written as an OptionalProto even when it holds a value: read back
  // as the declared optional type, a bare SequenceProto would parse as an OptionalProto holding
  // one of its tensors.
  const bool optional =
      value.IsNone() || (declared && declared->kind == ValueType::Kind::kOptional);
  if (optional) {
    onnx::OptionalProto proto;
    proto.set_name(name);
    if (value.IsTensor()) {
      proto.set_elem_type(onnx::OptionalProto_DataType_TENSOR);
      TensorToProto(value.tensor(), "", proto.mutable_tensor_value());
    } else if (value.IsSequence()) {
      proto.set_elem_type(onnx::OptionalProto_DataType_SEQUENCE);
      ValueToSequenceProto(value, "", proto.mutable_sequence_value());
    } else {
      const ValueType* element = declared && declared->element ? declared->element.get() : nullptr;
      if (element && element->kind == ValueType::Kind::kSequence) {
        proto.set_elem_type(onnx::OptionalProto_DataType_SEQUENCE);
      } else if (element && element->kind == ValueType::Kind::kTensor) {
        proto.set_elem_type(onnx::OptionalProto_DataType_TENSOR);
      }
    }
    proto.SerializeToString(&bytes);
  } else if (value.IsSequence()) {
    onnx::SequenceProto proto;
    ValueToSequenceProto(value, name, &proto);
    proto.SerializeToString(&bytes);
  } else {
    onnx::TensorProto proto;
    TensorToProto(value.tensor(), name, &proto);
    proto.SerializeToString(&bytes);
  }
  return WriteStringToFile(path, bytes);
}

}  // namespace ort
