// Reading and writing tensor files: numpy .npy and ONNX TensorProto .pb (also SequenceProto and
// OptionalProto .pb, as ONNX test data uses for sequence and optional values).
#pragma once

#include <string>

#include "lib/common/status.h"
#include "lib/ir/value.h"
#include "lib/ir/value_type.h"

namespace ort {

struct NamedFileValue {
  std::string name;  // the name stored in a .pb file ("" for .npy or unnamed)
  Value value;
};

/// Reads `path` by extension (.npy or .pb). For .pb, `expected` (when known) says whether the
/// file holds a TensorProto, SequenceProto or OptionalProto, and a uint16 tensor read for a
/// bfloat16 one is taken as its raw bits.
Result<NamedFileValue> ReadValueFile(const std::string& path, const ValueType* expected = nullptr);

/// Writes a value as a .pb named `name`: a TensorProto or SequenceProto, or an OptionalProto
/// when `declared` (the value's graph type, when known) is optional or the value is none.
Status WriteProtoFile(const std::string& path, const std::string& name, const Value& value,
                      const ValueType* declared = nullptr);

}  // namespace ort
