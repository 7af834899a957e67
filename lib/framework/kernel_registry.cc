#include "lib/framework/kernel_registry.h"

#include <algorithm>
#include <tuple>

namespace ort {
namespace {

std::string OpKey(std::string_view domain, std::string_view op_type) {
  std::string key(domain == "ai.onnx" ? std::string_view() : domain);
  key += ':';
  key += op_type;
  return key;
}

// True when the known type of the constrained argument is allowed (unknown types pass: they are
// checked at run time by the kernel).
bool TypeAllowed(const Node& node, const TypeConstraint& constraint, std::string* detail) {
  const auto& names = constraint.is_output ? node.outputs() : node.inputs();
  if (constraint.index >= static_cast<int>(names.size()) || names[constraint.index].empty()) {
    return true;
  }
  const ValueType* type = node.graph().FindTypeInScope(names[constraint.index]);
  if (type == nullptr || type->kind != ValueType::Kind::kTensor ||
      type->elem_type == DataType::kUndefined) {
    return true;
  }
  if (std::find(constraint.allowed.begin(), constraint.allowed.end(), type->elem_type) !=
      constraint.allowed.end()) {
    return true;
  }
  *detail = std::string(constraint.is_output ? "output " : "input ") +
            std::to_string(constraint.index) + " type " +
            std::string(DataTypeName(type->elem_type));
  return false;
}

}  // namespace

void KernelRegistry::Register(KernelDef def, KernelFactory factory) {
  auto& list = by_op_[OpKey(def.domain(), def.op_type())];
  list.push_back(KernelEntry{std::move(def), std::move(factory)});
}

bool KernelRegistry::HasOp(std::string_view domain, std::string_view op_type) const {
  return by_op_.count(OpKey(domain, op_type)) > 0;
}

const KernelEntry* KernelRegistry::Find(const Node& node, std::string* why_not) const {
  auto it = by_op_.find(OpKey(node.domain(), node.op_type()));
  if (it == by_op_.end()) {
    if (why_not) *why_not = "no kernel implements this op";
    return nullptr;
  }
  const int64_t opset = node.graph().OpsetVersion(node.domain());
  std::string versions;
  std::string type_detail;
  bool version_matched = false;
  for (const auto& entry : it->second) {
    const auto& def = entry.def;
    if (!versions.empty()) versions += ", ";
    versions += def.Describe();
    if (opset < def.since() || opset > def.until()) continue;
    version_matched = true;
    bool all_allowed = true;
    for (const auto& constraint : def.constraints()) {
      if (!TypeAllowed(node, constraint, &type_detail)) {
        all_allowed = false;
        break;
      }
    }
    if (all_allowed) return &entry;
  }
  if (why_not) {
    if (!version_matched) {
      *why_not = "opset " + std::to_string(opset) + " is not covered (kernels: " + versions + ")";
    } else {
      *why_not = "unsupported " + type_detail;
    }
  }
  return nullptr;
}

std::vector<const KernelEntry*> KernelRegistry::Entries() const {
  std::vector<const KernelEntry*> result;
  for (const auto& [key, list] : by_op_) {
    for (const auto& entry : list) result.push_back(&entry);
  }
  std::sort(result.begin(), result.end(), [](const KernelEntry* a, const KernelEntry* b) {
    return std::make_tuple(a->def.domain(), a->def.op_type(), a->def.since()) <
           std::make_tuple(b->def.domain(), b->def.op_type(), b->def.since());
  });
  return result;
}

}  // namespace ort
