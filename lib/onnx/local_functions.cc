#include "lib/onnx/local_functions.h"

#include <unordered_map>
#include <unordered_set>

#include "lib/onnx/function_body.h"

namespace ort {
namespace {

// Functions calling each other deeper than this are taken to be recursive.
constexpr int kMaxNesting = 32;

std::string FunctionKey(const std::string& domain, const std::string& name) {
  return (domain == "ai.onnx" ? std::string() : domain) + ":" + name;
}

void CollectNames(const onnx::GraphProto& graph, std::unordered_set<std::string>& names,
                  std::unordered_set<std::string>& node_names) {
  for (const auto& input : graph.input()) names.insert(input.name());
  for (const auto& initializer : graph.initializer()) names.insert(initializer.name());
  for (const auto& node : graph.node()) {
    node_names.insert(node.name());
    names.insert(node.input().begin(), node.input().end());
    names.insert(node.output().begin(), node.output().end());
    for (const auto& attribute : node.attribute()) {
      if (attribute.has_g()) CollectNames(attribute.g(), names, node_names);
      for (const auto& subgraph : attribute.graphs()) CollectNames(subgraph, names, node_names);
    }
  }
}

class Inliner {
 public:
  Inliner(const onnx::ModelProto& model, const std::string& label) : label_(label) {
    for (const auto& function : model.functions()) {
      functions_[FunctionKey(function.domain(), function.name())] = &function;
    }
    CollectNames(model.graph(), used_names_, used_node_names_);
  }

  Status InlineGraph(onnx::GraphProto& graph, int depth) {
    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    for (auto& node : *graph.mutable_node())
      ORT_RETURN_IF_ERROR(Emit(std::move(node), depth, nodes));
    graph.mutable_node()->Swap(&nodes);
    return Status::OK();
  }

 private:
  // Appends `node` to `out`, or the body of the local function it calls.
  Status Emit(onnx::NodeProto node, int depth,
              google::protobuf::RepeatedPtrField<onnx::NodeProto>& out) {
    auto it = functions_.find(FunctionKey(node.domain(), node.op_type()));
    if (it == functions_.end()) {
      for (auto& attribute : *node.mutable_attribute()) {
        if (attribute.has_g()) ORT_RETURN_IF_ERROR(InlineGraph(*attribute.mutable_g(), depth));
        for (auto& subgraph : *attribute.mutable_graphs()) {
          ORT_RETURN_IF_ERROR(InlineGraph(subgraph, depth));
        }
      }
      *out.Add() = std::move(node);
      return Status::OK();
    }
    const onnx::FunctionProto& function = *it->second;
    if (depth >= kMaxNesting) {
      return ORT_ERROR(kInvalidModel,
                       "{}: local function '{}' nests deeper than {} calls (recursive?)", label_,
                       function.name(), kMaxNesting);
    }
    // The call's own name is reserved already and is free again once the call is replaced.
    const std::string call =
        node.name().empty() ? Unique(function.name(), used_node_names_) : node.name();
    BodyValueNames names(function, node, [&](const std::string& name) {
      return Unique(call + "/" + name, used_names_);
    });
    for (const auto& body_node : function.node()) {
      onnx::NodeProto instance = body_node;
      InstantiateBodyNode(node, names, instance);
      instance.set_name(
          Unique(call + "/" + (body_node.name().empty() ? body_node.op_type() : body_node.name()),
                 used_node_names_));
      ORT_RETURN_IF_ERROR(Emit(std::move(instance), depth + 1, out));
    }
    return Status::OK();
  }

  static std::string Unique(const std::string& base, std::unordered_set<std::string>& used) {
    std::string name = base;
    for (int suffix = 1; used.count(name); ++suffix) name = base + "_" + std::to_string(suffix);
    used.insert(name);
    return name;
  }

  const std::string& label_;
  std::unordered_map<std::string, const onnx::FunctionProto*> functions_;
  std::unordered_set<std::string> used_names_;
  std::unordered_set<std::string> used_node_names_;
};

Status MergeOpsets(onnx::ModelProto& model, const std::string& label) {
  std::unordered_map<std::string, int64_t> versions;
  for (const auto& opset : model.opset_import())
    versions[opset.domain() == "ai.onnx" ? "" : opset.domain()] = opset.version();
  for (const auto& function : model.functions()) {
    for (const auto& opset : function.opset_import()) {
      const std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
      auto [it, added] = versions.emplace(domain, opset.version());
      if (added) {
        *model.add_opset_import() = opset;
      } else if (it->second != opset.version()) {
        return ORT_ERROR(
            kNotImplemented,
            "{}: local function '{}' imports opset {} of domain '{}' but the model imports {}",
            label, function.name(), opset.version(), domain, it->second);
      }
    }
  }
  return Status::OK();
}

}  // namespace

Status InlineLocalFunctions(onnx::ModelProto& model, const std::string& label) {
  if (model.functions_size() == 0) return Status::OK();
  ORT_RETURN_IF_ERROR(MergeOpsets(model, label));
  Inliner inliner(model, label);
  ORT_RETURN_IF_ERROR(inliner.InlineGraph(*model.mutable_graph(), 0));
  model.clear_functions();
  return Status::OK();
}

}  // namespace ort
