#include "lib/onnx/type_constraints.h"

#include <fmt/format.h>
#include <onnx/defs/data_type_utils.h>
#include <onnx/defs/schema.h>

#include <map>
#include <string>
#include <utility>

#include "lib/onnx/tensor_proto.h"

namespace ort {
namespace {

bool FullyKnown(const ValueType& type) {
  switch (type.kind) {
    case ValueType::Kind::kTensor:
    case ValueType::Kind::kSparseTensor:
      return type.elem_type != DataType::kUndefined;
    case ValueType::Kind::kSequence:
    case ValueType::Kind::kOptional:
      return type.element != nullptr && FullyKnown(*type.element);
    case ValueType::Kind::kMap:
      return type.elem_type != DataType::kUndefined && type.element != nullptr &&
             FullyKnown(*type.element);
    default:
      return false;
  }
}

// onnx's interned name of `type` ("tensor(float)", "seq(tensor(int64))"), or nullptr.
onnx::DataType OnnxTypeName(const ValueType& type) {
  onnx::TypeProto proto;
  ValueTypeToProto(type, &proto);
  try {
    return onnx::Utils::DataTypeUtils::ToType(proto);
  } catch (const std::exception&) {
    return nullptr;
  }
}

Status CheckNode(const Node& node, const onnx::OpSchema& schema) {
  const auto& formals = schema.inputs();
  if (formals.empty()) return Status::OK();
  std::map<std::string, std::pair<size_t, onnx::DataType>> bound;
  const auto& inputs = node.inputs();
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].empty()) continue;
    const ValueType* type = node.graph().FindTypeInScope(inputs[i]);
    if (type == nullptr || !FullyKnown(*type)) continue;
    const onnx::DataType name = OnnxTypeName(*type);
    if (name == nullptr) continue;
    // Arity was checked before inference; a variadic formal covers the inputs beyond the list.
    const auto& formal = formals[std::min(i, formals.size() - 1)];
    const auto& allowed = formal.GetTypes();
    if (!allowed.empty() && allowed.count(name) == 0) {
      return Status(StatusCode::kInvalidModel,
                    fmt::format("input {} '{}' has type {}, which {} (opset {}) does not accept "
                                "for '{}'",
                                i, inputs[i], *name, schema.Name(), schema.SinceVersion(),
                                formal.GetName()))
          .WithNode(node.Describe());
    }
    // Loop's and Scan's state values are variadic but each has its own type.
    if (formal.GetOption() == onnx::OpSchema::Variadic && !formal.GetIsHomogeneous()) continue;
    const auto [first, inserted] = bound.try_emplace(formal.GetTypeStr(), i, name);
    if (!inserted && first->second.second != name) {
      const size_t other = first->second.first;
      return Status(StatusCode::kInvalidModel,
                    fmt::format("input {} '{}' has type {} but input {} '{}' has type {}; {} "
                                "needs both to be the same type '{}'",
                                i, inputs[i], *name, other, inputs[other], *first->second.second,
                                schema.Name(), formal.GetTypeStr()))
          .WithNode(node.Describe());
    }
  }
  return Status::OK();
}

}  // namespace

Status CheckTypeConstraints(const Graph& graph) {
  for (const Node* node : graph.Nodes()) {
    const int64_t opset = graph.OpsetVersion(node->domain());
    const onnx::OpSchema* schema =
        opset > 0 ? onnx::OpSchemaRegistry::Schema(node->op_type(), static_cast<int>(opset),
                                                   node->domain())
                  : nullptr;
    if (schema != nullptr) ORT_RETURN_IF_ERROR(CheckNode(*node, *schema));
    for (const Graph* subgraph : node->Subgraphs()) {
      ORT_RETURN_IF_ERROR(CheckTypeConstraints(*subgraph));
    }
  }
  return Status::OK();
}

}  // namespace ort
