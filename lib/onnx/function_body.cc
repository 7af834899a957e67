#include "lib/onnx/function_body.h"

#include <unordered_set>

namespace ort {
namespace {

// Renames, inside `graph` and its nested subgraphs, the values it reads from the function body.
void RenameCapturedValues(onnx::GraphProto& graph, const BodyValueNames& names) {
  std::unordered_set<std::string> local;
  for (const auto& input : graph.input()) local.insert(input.name());
  for (const auto& initializer : graph.initializer()) local.insert(initializer.name());
  for (const auto& node : graph.node()) local.insert(node.output().begin(), node.output().end());
  auto rename = [&](std::string* name) {
    if (!local.count(*name)) *name = names.Lookup(*name);
  };
  for (auto& node : *graph.mutable_node()) {
    for (auto& input : *node.mutable_input()) rename(&input);
    for (auto& attribute : *node.mutable_attribute()) {
      if (attribute.has_g()) RenameCapturedValues(*attribute.mutable_g(), names);
      for (auto& subgraph : *attribute.mutable_graphs()) RenameCapturedValues(subgraph, names);
    }
  }
  for (auto& output : *graph.mutable_output()) rename(output.mutable_name());
}

const onnx::AttributeProto* FindAttribute(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& attribute : node.attribute()) {
    if (attribute.name() == name) return &attribute;
  }
  return nullptr;
}

}  // namespace

BodyValueNames::BodyValueNames(const onnx::FunctionProto& function, const onnx::NodeProto& caller,
                               std::function<std::string(const std::string&)> fresh)
    : fresh_(std::move(fresh)) {
  for (int i = 0; i < function.input_size(); ++i) {
    renamed_[function.input(i)] = i < caller.input_size() ? caller.input(i) : std::string();
  }
  for (int i = 0; i < function.output_size(); ++i) {
    renamed_[function.output(i)] = i < caller.output_size() ? caller.output(i) : std::string();
  }
}

std::string BodyValueNames::operator()(const std::string& name) {
  if (name.empty()) return name;
  auto it = renamed_.find(name);
  if (it != renamed_.end()) return it->second;
  std::string fresh = fresh_(name);
  renamed_[name] = fresh;
  return fresh;
}

std::string BodyValueNames::Lookup(const std::string& name) const {
  auto it = renamed_.find(name);
  return it == renamed_.end() ? name : it->second;
}

void InstantiateBodyNode(const onnx::NodeProto& caller, BodyValueNames& names,
                         onnx::NodeProto& body_node) {
  for (auto& input : *body_node.mutable_input()) input = names(input);
  for (auto& attribute : *body_node.mutable_attribute()) {
    if (attribute.has_g()) RenameCapturedValues(*attribute.mutable_g(), names);
    for (auto& subgraph : *attribute.mutable_graphs()) RenameCapturedValues(subgraph, names);
  }
  for (auto& output : *body_node.mutable_output()) output = names(output);
  auto* attributes = body_node.mutable_attribute();
  for (int a = attributes->size() - 1; a >= 0; --a) {
    auto* attribute = attributes->Mutable(a);
    if (attribute->ref_attr_name().empty()) continue;
    const onnx::AttributeProto* value = FindAttribute(caller, attribute->ref_attr_name());
    if (value == nullptr) {
      attributes->DeleteSubrange(a, 1);
      continue;
    }
    const std::string name = attribute->name();
    *attribute = *value;
    attribute->set_name(name);
  }
}

}  // namespace ort
