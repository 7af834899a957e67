#include "lib/ir/attribute.h"

#include "lib/ir/graph.h"

namespace ort {

std::string_view AttributeTypeName(AttributeType type) {
  switch (type) {
    case AttributeType::kFloat:
      return "float";
    case AttributeType::kInt:
      return "int";
    case AttributeType::kString:
      return "string";
    case AttributeType::kTensor:
      return "tensor";
    case AttributeType::kGraph:
      return "graph";
    case AttributeType::kFloats:
      return "floats";
    case AttributeType::kInts:
      return "ints";
    case AttributeType::kStrings:
      return "strings";
    case AttributeType::kTensors:
      return "tensors";
    case AttributeType::kGraphs:
      return "graphs";
    case AttributeType::kSparseTensor:
      return "sparse_tensor";
    case AttributeType::kSparseTensors:
      return "sparse_tensors";
    case AttributeType::kTypeProto:
      return "type_proto";
    case AttributeType::kTypeProtos:
      return "type_protos";
    case AttributeType::kUndefined:
      break;
  }
  return "undefined";
}

Attribute::Attribute() = default;
Attribute::~Attribute() = default;
Attribute::Attribute(Attribute&&) noexcept = default;
Attribute& Attribute::operator=(Attribute&&) noexcept = default;

Attribute Attribute::Clone() const {
  Attribute copy;
  copy.name = name;
  copy.type = type;
  copy.f = f;
  copy.i = i;
  copy.s = s;
  copy.t = t;
  if (g) copy.g = g->Clone();
  copy.floats = floats;
  copy.ints = ints;
  copy.strings = strings;
  copy.tensors = tensors;
  for (const auto& subgraph : graphs) copy.graphs.push_back(subgraph->Clone());
  copy.type_protos = type_protos;
  copy.ref_attr_name = ref_attr_name;
  copy.doc_string = doc_string;
  return copy;
}

Attribute Attribute::Float(std::string name, float value) {
  Attribute a;
  a.name = std::move(name);
  a.type = AttributeType::kFloat;
  a.f = value;
  return a;
}

Attribute Attribute::Int(std::string name, int64_t value) {
  Attribute a;
  a.name = std::move(name);
  a.type = AttributeType::kInt;
  a.i = value;
  return a;
}

Attribute Attribute::String(std::string name, std::string value) {
  Attribute a;
  a.name = std::move(name);
  a.type = AttributeType::kString;
  a.s = std::move(value);
  return a;
}

Attribute Attribute::Floats(std::string name, std::vector<float> values) {
  Attribute a;
  a.name = std::move(name);
  a.type = AttributeType::kFloats;
  a.floats = std::move(values);
  return a;
}

Attribute Attribute::Ints(std::string name, std::vector<int64_t> values) {
  Attribute a;
  a.name = std::move(name);
  a.type = AttributeType::kInts;
  a.ints = std::move(values);
  return a;
}

Attribute Attribute::Strings(std::string name, std::vector<std::string> values) {
  Attribute a;
  a.name = std::move(name);
  a.type = AttributeType::kStrings;
  a.strings = std::move(values);
  return a;
}

Attribute Attribute::TensorValue(std::string name, Tensor value) {
  Attribute a;
  a.name = std::move(name);
  a.type = AttributeType::kTensor;
  a.t = std::move(value);
  return a;
}

Attribute Attribute::GraphValue(std::string name, std::unique_ptr<Graph> value) {
  Attribute a;
  a.name = std::move(name);
  a.type = AttributeType::kGraph;
  a.g = std::move(value);
  return a;
}

}  // namespace ort
