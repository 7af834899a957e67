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

}  // namespace

Result<NamedFileValue> ReadValueFile(const std::string& path, const ValueType* expected) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".npy") {
    ORT_ASSIGN_OR_RETURN(Tensor tensor, ReadNpy(path));
    return NamedFileValue{"", Value(std::move(tensor))};
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
  return NamedFileValue{proto.name(), Value(std::move(tensor).value())};
}

Status WriteProtoFile(const std::string& path, const std::string& name, const Value& value) {
  std::string bytes;
  if (value.IsSequence()) {
    onnx::SequenceProto proto;
    ValueToSequenceProto(value, name, &proto);
    proto.SerializeToString(&bytes);
  } else if (value.IsTensor()) {
    onnx::TensorProto proto;
    TensorToProto(value.tensor(), name, &proto);
    proto.SerializeToString(&bytes);
  } else if (value.IsNone()) {
    onnx::OptionalProto proto;
    proto.set_name(name);
    proto.SerializeToString(&bytes);
  } else {
    return ORT_ERROR(kInvalidArgument, "output '{}' holds no value to write", name);
  }
  return WriteStringToFile(path, bytes);
}

}  // namespace ort
