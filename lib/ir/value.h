// Value: what flows along a graph edge at run time: a tensor, a sequence of tensors, or the
// "none" of an optional type.
#pragma once

#include <variant>
#include <vector>

#include "lib/ir/tensor.h"
#include "lib/ir/value_type.h"

namespace ort {

/// An ordered list of tensors of one element type (ONNX seq(tensor(T))).
struct TensorSequence {
  DataType elem_type = DataType::kUndefined;
  std::vector<Tensor> tensors;
};

/// An optional with no element; carries the type it would have held.
struct NoneValue {
  ValueType type;
};

class Value {
 public:
  Value() = default;
  Value(Tensor tensor) : data_(std::move(tensor)) {}              // NOLINT: implicit by design
  Value(TensorSequence sequence) : data_(std::move(sequence)) {}  // NOLINT: implicit by design
  Value(NoneValue none) : data_(std::move(none)) {}               // NOLINT: implicit by design

  bool IsEmpty() const { return std::holds_alternative<std::monostate>(data_); }
  bool IsTensor() const { return std::holds_alternative<Tensor>(data_); }
  bool IsSequence() const { return std::holds_alternative<TensorSequence>(data_); }
  bool IsNone() const { return std::holds_alternative<NoneValue>(data_); }

  const Tensor& tensor() const { return std::get<Tensor>(data_); }
  Tensor& mutable_tensor() { return std::get<Tensor>(data_); }
  const TensorSequence& sequence() const { return std::get<TensorSequence>(data_); }
  TensorSequence& mutable_sequence() { return std::get<TensorSequence>(data_); }
  const NoneValue& none() const { return std::get<NoneValue>(data_); }

  /// "float[1,3]", "seq(float) of 2", "none".
  std::string Describe() const;

 private:
  std::variant<std::monostate, Tensor, TensorSequence, NoneValue> data_;
};

}  // namespace ort
