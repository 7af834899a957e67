// Node attributes, including subgraph bodies of If/Loop/Scan.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lib/ir/tensor.h"
#include "lib/ir/value_type.h"

namespace ort {

class Graph;

/// Values match onnx.AttributeProto.AttributeType.
enum class AttributeType {
  kUndefined = 0,
  kFloat = 1,
  kInt = 2,
  kString = 3,
  kTensor = 4,
  kGraph = 5,
  kFloats = 6,
  kInts = 7,
  kStrings = 8,
  kTensors = 9,
  kGraphs = 10,
  kSparseTensor = 11,
  kSparseTensors = 12,
  kTypeProto = 13,
  kTypeProtos = 14,
};

std::string_view AttributeTypeName(AttributeType type);

/// One attribute. Only the member matching `type` is meaningful. Sparse tensors are held dense.
/// Move-only: it may own subgraphs.
struct Attribute {
  std::string name;
  AttributeType type = AttributeType::kUndefined;
  float f = 0;
  int64_t i = 0;
  std::string s;
  Tensor t;
  std::unique_ptr<Graph> g;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  std::vector<Tensor> tensors;
  std::vector<std::unique_ptr<Graph>> graphs;
  std::vector<ValueType> type_protos;  // kTypeProto holds one
  std::string ref_attr_name;           // set inside function bodies
  std::string doc_string;

  Attribute();
  ~Attribute();
  Attribute(Attribute&&) noexcept;
  Attribute& operator=(Attribute&&) noexcept;
  /// A deep copy (subgraphs cloned with Graph::Clone, not yet adopted by a node); tensors share
  /// their buffers.
  Attribute Clone() const;

  static Attribute Float(std::string name, float value);
  static Attribute Int(std::string name, int64_t value);
  static Attribute String(std::string name, std::string value);
  static Attribute Floats(std::string name, std::vector<float> values);
  static Attribute Ints(std::string name, std::vector<int64_t> values);
  static Attribute Strings(std::string name, std::vector<std::string> values);
  static Attribute TensorValue(std::string name, Tensor value);
  static Attribute GraphValue(std::string name, std::unique_ptr<Graph> value);
};

}  // namespace ort
