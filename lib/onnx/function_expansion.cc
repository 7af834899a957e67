#include "lib/onnx/function_expansion.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <unordered_map>
#include <unordered_set>

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

// Renames, inside `graph` and its nested subgraphs, the values it reads from the function's scope.
void RenameCapturedValues(onnx::GraphProto& graph,
                          const std::unordered_map<std::string, std::string>& renamed) {
  std::unordered_set<std::string> local;
  for (const auto& input : graph.input()) local.insert(input.name());
  for (const auto& initializer : graph.initializer()) local.insert(initializer.name());
  for (const auto& node : graph.node()) local.insert(node.output().begin(), node.output().end());
  auto rename = [&](std::string* name) {
    if (local.count(*name)) return;
    auto it = renamed.find(*name);
    if (it != renamed.end()) *name = it->second;
  };
  for (auto& node : *graph.mutable_node()) {
    for (auto& input : *node.mutable_input()) rename(&input);
    for (auto& attribute : *node.mutable_attribute()) {
      if (attribute.has_g()) RenameCapturedValues(*attribute.mutable_g(), renamed);
      for (auto& subgraph : *attribute.mutable_graphs()) RenameCapturedValues(subgraph, renamed);
    }
  }
  for (auto& output : *graph.mutable_output()) rename(output.mutable_name());
}

// Replaces `node` by the nodes of `function`, renaming the body's values into `graph`.
Status InlineFunction(Graph& graph, Node& node, onnx::FunctionProto& function) {
  std::unordered_map<std::string, std::string> renamed;
  for (int i = 0; i < function.input_size(); ++i) {
    renamed[function.input(i)] = node.HasInput(i) ? node.inputs()[i] : std::string();
  }
  for (int i = 0; i < function.output_size(); ++i) {
    renamed[function.output(i)] = node.HasOutput(i) ? node.outputs()[i] : std::string();
  }
  auto rename = [&](const std::string& name) -> std::string {
    if (name.empty()) return name;
    auto it = renamed.find(name);
    if (it != renamed.end()) return it->second;
    std::string fresh = graph.UniqueValueName(node.name() + "/" + name);
    renamed[name] = fresh;
    return fresh;
  };

  onnx::NodeProto caller;
  ORT_RETURN_IF_ERROR(NodeToProto(node, &caller, GraphWriteOptions{}));
  auto caller_attribute = [&caller](const std::string& name) -> const onnx::AttributeProto* {
    for (const auto& attribute : caller.attribute()) {
      if (attribute.name() == name) return &attribute;
    }
    return nullptr;
  };

  std::vector<NodeSpec> specs;
  for (auto& body_node : *function.mutable_node()) {
    for (auto& input : *body_node.mutable_input()) input = rename(input);
    for (auto& attribute : *body_node.mutable_attribute()) {
      if (attribute.has_g()) RenameCapturedValues(*attribute.mutable_g(), renamed);
      for (auto& subgraph : *attribute.mutable_graphs()) RenameCapturedValues(subgraph, renamed);
    }
    for (auto& output : *body_node.mutable_output()) output = rename(output);
    // Attributes referring to the function's attributes take the caller's values, or are
    // dropped (falling back to the op's default) when the caller did not set them.
    auto* attributes = body_node.mutable_attribute();
    for (int a = attributes->size() - 1; a >= 0; --a) {
      auto* attribute = attributes->Mutable(a);
      if (attribute->ref_attr_name().empty()) continue;
      const onnx::AttributeProto* value = caller_attribute(attribute->ref_attr_name());
      if (value == nullptr) {
        attributes->DeleteSubrange(a, 1);
        continue;
      }
      const std::string name = attribute->name();
      *attribute = *value;
      attribute->set_name(name);
    }
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
