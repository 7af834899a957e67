// Conversions between onnx protobuf messages (TensorProto, SparseTensorProto, TypeProto,
// SequenceProto, OptionalProto) and the engine's Tensor, ValueType and Value.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "lib/common/mapped_file.h"
#include "lib/common/status.h"
#include "lib/ir/tensor.h"
#include "lib/ir/value.h"
#include "lib/ir/value_type.h"
#include "lib/memory/allocator.h"

namespace onnx {
class TensorProto;
class SparseTensorProto;
class TypeProto;
class SequenceProto;
class OptionalProto;
}  // namespace onnx

namespace ort {

/// Resolves TensorProto external data against a model's directory. Locations must be relative
/// paths that stay inside that directory; files are memory-mapped once and shared.
class ExternalDataResolver {
 public:
  explicit ExternalDataResolver(std::filesystem::path base_directory)
      : base_directory_(std::move(base_directory)) {}

  /// The tensor `proto` describes, viewing the mapped file when the data is suitably aligned.
  Result<Tensor> Load(const onnx::TensorProto& proto, DataType type, TensorShape shape);

 private:
  std::filesystem::path base_directory_;
  std::map<std::string, std::shared_ptr<MappedFile>> files_;
};

/// Checks what onnx's shape inference reads from an inline tensor before anything converts it: a
/// known element type, dims without negatives or overflow, and raw_data of exactly the bytes they
/// need (onnx copies raw_data whole into a buffer sized by it rounded down to whole elements).
Status CheckTensorProtoData(const onnx::TensorProto& proto);

/// Converts `proto` to a tensor. Inline raw_data is moved out of `proto` and used in place.
/// `external` may be null when external data is not allowed (it is then an error).
Result<Tensor> TensorFromProto(onnx::TensorProto& proto, ExternalDataResolver* external);
/// As above, copying the data and leaving `proto` untouched.
Result<Tensor> TensorFromProtoCopy(const onnx::TensorProto& proto, ExternalDataResolver* external);
/// Densifies a sparse tensor; an error when the dense tensor would exceed `max_dense_bytes` (a few
/// values declared over dims of 2^40 would otherwise exhaust memory).
Result<Tensor> TensorFromSparseProto(const onnx::SparseTensorProto& proto,
                                     ExternalDataResolver* external,
                                     size_t max_dense_bytes = DefaultMaxTensorBytes());
/// Writes `tensor` (on the CPU) into `proto` as raw_data (string_data for strings).
void TensorToProto(const Tensor& tensor, const std::string& name, onnx::TensorProto* proto);

Result<ValueType> ValueTypeFromProto(const onnx::TypeProto& proto);
void ValueTypeToProto(const ValueType& type, onnx::TypeProto* proto);

Result<Value> ValueFromSequenceProto(const onnx::SequenceProto& proto);
Result<Value> ValueFromOptionalProto(const onnx::OptionalProto& proto);
void ValueToSequenceProto(const Value& value, const std::string& name, onnx::SequenceProto* proto);

}  // namespace ort
