#include "lib/onnx/function_expansion.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include "lib/onnx/function_body.h"
#include "lib/onnx/graph_proto.h"
#include "lib/onnx/model_loader.h"
#include "lib/onnx/tensor_proto.h"

namespace ort {
namespace {

// Nested function ops are expanded again; a bound guards against self-referencing definitions.
constexpr int kMaxExpansionRounds = 8;

Result<bool> BuildFunctionBody(const Graph& graph, const Node& node,
                               onnx::FunctionProto* function) {
  const int64_t opset = graph.OpsetVersion(node.domain());
  if (opset <= 0) return false;
  const onnx::OpSchema* schema =
      onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset), node.domain());
  if (schema == nullptr) return false;
  if (schema->HasContextDependentFunction()) {
    onnx::NodeProto node_proto;
    ORT_RETURN_IF_ERROR(NodeToProto(node, &node_proto, GraphWriteOptions{}));
    std::vector<onnx::TypeProto> input_types(node.inputs().size());
    for (size_t i = 0; i < node.inputs().size(); ++i) {
      if (!node.HasInput(i)) continue;
      const ValueType* type = graph.FindTypeInScope(node.inputs()[i]);
      if (type != nullptr) ValueTypeToProto(*type, &input_types[i]);
    }
    onnx::FunctionBodyBuildContextImpl context(node_proto, input_types);
    try {
      if (schema->BuildContextDependentFunction(context, *function)) return true;
    } catch (const std::exception&) {
      return false;
    }
    return false;
  }
  if (schema->HasFunction() && schema->GetFunction() != nullptr) {
    *function = *schema->GetFunction();
    return true;
  }
  return false;
}

// Replaces `node` by the nodes of `function`, renaming the body's values into `graph`.
Status InlineFunction(Graph& graph, Node& node, onnx::FunctionProto& function) {
  onnx::NodeProto caller;
  ORT_RETURN_IF_ERROR(NodeToProto(node, &caller, GraphWriteOptions{}));
  BodyValueNames names(function, caller, [&](const std::string& name) {
    return graph.UniqueValueName(node.name() + "/" + name);
  });
  std::vector<NodeSpec> specs;
  for (auto& body_node : *function.mutable_node()) {
    InstantiateBodyNode(caller, names, body_node);
    ORT_ASSIGN_OR_RETURN(NodeSpec spec, NodeSpecFromProto(body_node, graph, nullptr));
    spec.name = graph.UniqueNodeName(node.name() + "/" + body_node.op_type());
    specs.push_back(std::move(spec));
  }
  graph.RemoveNode(node.index());
  for (auto& spec : specs) graph.AddNode(std::move(spec));
  return Status::OK();
}

Result<bool> ExpandInGraph(Graph& graph, const std::function<bool(const Node&)>& has_kernel) {
  bool changed = false;
  for (Node* node : graph.Nodes()) {
    for (Graph* subgraph : node->Subgraphs()) {
      ORT_ASSIGN_OR_RETURN(bool sub_changed, ExpandInGraph(*subgraph, has_kernel));
      changed = changed || sub_changed;
    }
    if (has_kernel(*node)) continue;
    onnx::FunctionProto function;
    ORT_ASSIGN_OR_RETURN(bool has_body, BuildFunctionBody(graph, *node, &function));
    if (!has_body) continue;
    const std::string description = node->Describe();
    Status status = InlineFunction(graph, *node, function);
    if (!status.ok()) return status.WithContext("expanding function " + description);
    changed = true;
  }
  return changed;
}

}  // namespace

Status ExpandFunctionNodes(Model& model, const std::function<bool(const Node&)>& has_kernel) {
  for (int round = 0; round < kMaxExpansionRounds; ++round) {
    ORT_ASSIGN_OR_RETURN(bool changed, ExpandInGraph(model.graph(), has_kernel));
    if (!changed) return Status::OK();
    ResolveSchemaVersions(model.graph());
    model.graph().ResolveOuterScope();
    InferModelTypes(model);
  }
  return Status::OK();
}

}  // namespace ort
