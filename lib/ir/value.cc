#include "lib/ir/value.h"

#include <string>

namespace ort {

std::string Value::Describe() const {
  if (IsTensor()) return tensor().Describe();
  if (IsSequence()) {
    return "seq(" + std::string(DataTypeName(sequence().elem_type)) + ") of " +
           std::to_string(sequence().tensors.size());
  }
  if (IsNone()) return "none";
  return "empty";
}

}  // namespace ort
