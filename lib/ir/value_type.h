// Static types of graph values: tensors with (possibly symbolic) shapes, sequences, optionals.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/ir/data_type.h"
#include "lib/ir/tensor_shape.h"

namespace ort {

/// One dimension of a declared shape: a number, a named symbol ("batch"), or unknown. Equal
/// params mean equal sizes (ONNX's rule for dim_params); after the symbolic_shape_inference pass a
/// param may also spell a dimension computed from others ("2*seq", "floor((h+1)/2)", lib/shape's
/// canonical form) or name a fresh unknown ("unk_3").
struct Dimension {
  int64_t value = -1;  // >= 0 when known
  std::string param;   // symbol name when not known

  static Dimension Known(int64_t v) { return {v, {}}; }
  static Dimension Symbol(std::string name) { return {-1, std::move(name)}; }
  bool IsKnown() const { return value >= 0; }
  bool operator==(const Dimension& other) const = default;
};

using SymbolicShape = std::vector<Dimension>;

/// "[batch,3,224,224]" with "?" for unknown dimensions.
std::string SymbolicShapeToString(const SymbolicShape& shape);
/// The concrete shape when every dimension is known and their product fits in int64.
std::optional<TensorShape> ToConcreteShape(const SymbolicShape& shape);

/// The type of a graph value, as in onnx.TypeProto.
struct ValueType {
  enum class Kind { kUnknown, kTensor, kSparseTensor, kSequence, kOptional, kMap };

  Kind kind = Kind::kUnknown;
  DataType elem_type = DataType::kUndefined;  // tensor, sparse tensor; map key
  std::optional<SymbolicShape> shape;         // tensor; nullopt when the rank is unknown
  std::shared_ptr<const ValueType> element;   // sequence/optional element; map value

  static ValueType Tensor(DataType type, std::optional<SymbolicShape> shape = std::nullopt);
  static ValueType SequenceOf(ValueType element);
  static ValueType OptionalOf(ValueType element);

  bool IsTensor() const { return kind == Kind::kTensor; }
  /// "tensor(float)[batch,3]", "seq(tensor(int64))", "optional(tensor(float))".
  std::string ToString() const;
  bool operator==(const ValueType& other) const;
};

}  // namespace ort
