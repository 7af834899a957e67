#include "lib/ir/value_type.h"

namespace ort {

std::string SymbolicShapeToString(const SymbolicShape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ',';
    if (shape[i].IsKnown()) {
      text += std::to_string(shape[i].value);
    } else {
      text += shape[i].param.empty() ? "?" : shape[i].param;
    }
  }
  return text + "]";
}

std::optional<TensorShape> ToConcreteShape(const SymbolicShape& shape) {
  std::vector<int64_t> dims;
  dims.reserve(shape.size());
  for (const auto& dim : shape) {
    if (!dim.IsKnown()) return std::nullopt;
    dims.push_back(dim.value);
  }
  // A shape no tensor can have is not concrete: callers multiply its dimensions unchecked.
  if (!CheckedElementCount(dims).ok()) return std::nullopt;
  return TensorShape(std::move(dims));
}

ValueType ValueType::Tensor(DataType type, std::optional<SymbolicShape> shape) {
  ValueType result;
  result.kind = Kind::kTensor;
  result.elem_type = type;
  result.shape = std::move(shape);
  return result;
}

ValueType ValueType::SequenceOf(ValueType element) {
  ValueType result;
  result.kind = Kind::kSequence;
  result.element = std::make_shared<const ValueType>(std::move(element));
  return result;
}

ValueType ValueType::OptionalOf(ValueType element) {
  ValueType result;
  result.kind = Kind::kOptional;
  result.element = std::make_shared<const ValueType>(std::move(element));
  return result;
}

std::string ValueType::ToString() const {
  const std::string inner = element ? element->ToString() : "?";
  switch (kind) {
    case Kind::kTensor:
    case Kind::kSparseTensor: {
      std::string text = kind == Kind::kTensor ? "tensor(" : "sparse_tensor(";
      text += DataTypeName(elem_type);
      text += ")";
      if (shape) text += SymbolicShapeToString(*shape);
      return text;
    }
    case Kind::kSequence:
      return "seq(" + inner + ")";
    case Kind::kOptional:
      return "optional(" + inner + ")";
    case Kind::kMap:
      return "map(" + std::string(DataTypeName(elem_type)) + "," + inner + ")";
    case Kind::kUnknown:
      break;
  }
  return "unknown";
}

bool ValueType::operator==(const ValueType& other) const {
  if (kind != other.kind || elem_type != other.elem_type || shape != other.shape) return false;
  if (!element || !other.element) return element == other.element;
  return *element == *other.element;
}

}  // namespace ort
