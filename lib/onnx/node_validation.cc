#include "lib/onnx/node_validation.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "lib/onnx/node_checks.h"
#include "lib/onnx/tensor_proto.h"

namespace ort {
namespace {

using Opsets = std::map<std::string, int64_t>;

std::string NormalDomain(const std::string& domain) {
  return domain == "ai.onnx" ? std::string() : domain;
}

// The schema onnx has for a node, and whether it is the node's own: when the model imports a
// newer opset of the domain than onnx knows, it is onnx's newest, which may predate the op's
// current form (Pad-13 before Pad-18's axes input, or attributes added since).
struct SchemaMatch {
  const onnx::OpSchema* schema = nullptr;
  bool exact = false;
};

SchemaMatch FindSchema(const onnx::NodeProto& node, const std::string& domain, int64_t opset) {
  const auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto known = ranges.find(domain);
  if (opset <= 0 || known == ranges.end()) return {};
  const int64_t version = std::min<int64_t>(opset, known->second.second);
  return {onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(version), domain),
          version == opset};
}

// Worded as Node::Describe will word it once loaded; unnamed nodes get the name the loader gives
// them (op type and position).
std::string DescribeNode(const onnx::NodeProto& node, int position) {
  const std::string name =
      node.name().empty() ? node.op_type() + "_" + std::to_string(position) : node.name();
  const std::string op =
      node.domain().empty() ? node.op_type() : node.domain() + ":" + node.op_type();
  return "node '" + name + "' (" + op + ")";
}

// ONNX Runtime registers these in the ai.onnx domain from opset 1 and writes them into the
// models it optimizes, below the opset where ONNX added LayerNormalization.
bool IsOrtOnnxDomainContribOp(const std::string& op_type) {
  return op_type == "LayerNormalization" || op_type == "SimplifiedLayerNormalization";
}

bool HasInput(const onnx::NodeProto& node, size_t index) {
  return index < static_cast<size_t>(node.input_size()) && !node.input(index).empty();
}

// Passes and kernels index a node's inputs and outputs as its schema numbers them. An older
// schema still holds for the inputs and outputs it requires (later versions add optional ones).
Status CheckArity(const NodeContext& n, const onnx::OpSchema& schema, bool exact) {
  const auto& formals = schema.inputs();
  for (size_t i = 0; i < formals.size(); ++i) {
    const auto option = formals[i].GetOption();
    const bool required = option == onnx::OpSchema::Single ||
                          (option == onnx::OpSchema::Variadic && formals[i].GetMinArity() > 0);
    if (required && !HasInput(n.node, i)) {
      return n.Error("required input {} ('{}') is missing", i, formals[i].GetName());
    }
  }
  if (n.node.output_size() < schema.min_output()) {
    return n.Error("{} outputs, but {} has at least {}", n.node.output_size(), n.node.op_type(),
                   schema.min_output());
  }
  if (!exact) return Status::OK();
  if (n.node.input_size() > schema.max_input()) {
    return n.Error("{} inputs, but {} takes at most {}", n.node.input_size(), n.node.op_type(),
                   schema.max_input());
  }
  if (n.node.output_size() > schema.max_output()) {
    return n.Error("{} outputs, but {} has at most {}", n.node.output_size(), n.node.op_type(),
                   schema.max_output());
  }
  return Status::OK();
}

std::string TypeName(onnx::AttributeProto::AttributeType type) {
  return onnx::AttributeProto::AttributeType_Name(type);
}

// The schema's attribute names, for a message about one it lacks ("axes" written for "axis").
std::string AttributeNames(const onnx::OpSchema& schema) {
  if (schema.attributes().empty()) return "none";
  std::string names;
  for (const auto& [name, formal] : schema.attributes()) {
    names += (names.empty() ? "" : ", ") + name;
  }
  return names;
}

// Attributes the schema knows must have its type, and required ones must be there. An ONNX op's
// attribute its schema does not know is refused, as ONNX Runtime refuses it: it is most often a
// misspelt one whose default would silently apply instead.
Status CheckAttributes(const NodeContext& n, const onnx::OpSchema* schema) {
  std::unordered_set<std::string> seen;
  for (const auto& attribute : n.node.attribute()) {
    if (!seen.insert(attribute.name()).second) {
      return n.Error("attribute '{}' is given twice", attribute.name());
    }
    if (!attribute.ref_attr_name().empty()) continue;
    if (attribute.type() == onnx::AttributeProto::UNDEFINED) {
      return n.Error("attribute '{}' has no type", attribute.name());
    }
    if (schema == nullptr) continue;
    auto it = schema->attributes().find(attribute.name());
    if (it == schema->attributes().end() && n.domain.empty()) {
      return n.Error("attribute '{}' is not one {} (opset {}) has; it has: {}", attribute.name(),
                     schema->Name(), schema->SinceVersion(), AttributeNames(*schema));
    }
    if (it != schema->attributes().end() && it->second.type != attribute.type()) {
      return n.Error("attribute '{}' must be {}, got {}", attribute.name(),
                     TypeName(it->second.type), TypeName(attribute.type()));
    }
  }
  if (schema == nullptr) return Status::OK();
  for (const auto& [name, formal] : schema->attributes()) {
    if (formal.required && seen.count(name) == 0) {
      return n.Error("required attribute '{}' is missing", name);
    }
  }
  return Status::OK();
}

Status InGraph(Status status, const onnx::GraphProto& graph) {
  if (status.ok()) return status;
  return Status(status.code(), fmt::format("graph '{}': {}", graph.name(), status.message()));
}

Status CheckSparseData(const onnx::SparseTensorProto& sparse) {
  ORT_RETURN_IF_ERROR(CheckTensorProtoData(sparse.values()));
  return CheckTensorProtoData(sparse.indices());
}

// The tensors an attribute holds, checked as initializers are.
Status CheckAttributeData(const onnx::AttributeProto& attribute) {
  if (attribute.has_t()) ORT_RETURN_IF_ERROR(CheckTensorProtoData(attribute.t()));
  for (const auto& tensor : attribute.tensors()) ORT_RETURN_IF_ERROR(CheckTensorProtoData(tensor));
  if (attribute.has_sparse_tensor())
    ORT_RETURN_IF_ERROR(CheckSparseData(attribute.sparse_tensor()));
  return Status::OK();
}

class GraphValidator {
 public:
  explicit GraphValidator(Opsets opsets) : opsets_(std::move(opsets)) {}

  Status Validate(const onnx::GraphProto& graph, const RankScope* parent) {
    const RankScope scope(graph, parent);
    // onnx's inference crashes on a graph input listed twice.
    std::unordered_set<std::string> inputs;
    for (const auto& input : graph.input()) {
      if (!inputs.insert(input.name()).second) {
        return ORT_ERROR(kInvalidModel, "graph '{}' lists input '{}' twice", graph.name(),
                         input.name());
      }
    }
    std::unordered_set<std::string> initializers;
    for (const auto& initializer : graph.initializer()) {
      if (!initializers.insert(initializer.name()).second) {
        return ORT_ERROR(kInvalidModel, "graph '{}' has two initializers named '{}'", graph.name(),
                         initializer.name());
      }
      ORT_RETURN_IF_ERROR(InGraph(CheckTensorProtoData(initializer), graph));
    }
    for (const auto& sparse : graph.sparse_initializer()) {
      initializers.insert(sparse.values().name());
      ORT_RETURN_IF_ERROR(InGraph(CheckSparseData(sparse), graph));
    }
    std::unordered_map<std::string, std::string> producers;
    for (int i = 0; i < graph.node_size(); ++i) {
      const onnx::NodeProto& node = graph.node(i);
      const std::string description = DescribeNode(node, i);
      if (node.op_type().empty()) {
        return ORT_ERROR(kInvalidModel, "node {} of graph '{}'{} has no op_type", i, graph.name(),
                         node.name().empty() ? "" : " ('" + node.name() + "')");
      }
      for (const auto& output : node.output()) {
        if (output.empty()) continue;
        const char* shadowed = inputs.count(output) > 0         ? "a graph input"
                               : initializers.count(output) > 0 ? "an initializer"
                                                                : nullptr;
        if (shadowed != nullptr) {
          return Status(StatusCode::kInvalidModel,
                        fmt::format("output '{}' has the name of {} of graph '{}'; a node may "
                                    "not redefine it",
                                    output, shadowed, graph.name()))
              .WithNode(description);
        }
        auto [it, added] = producers.emplace(output, description);
        if (!added) {
          return Status(StatusCode::kInvalidModel,
                        fmt::format("output '{}' is also produced by {}", output,
                                    it->second == description ? "this node" : it->second))
              .WithNode(description);
        }
      }
      // onnx's inference functions read an undefined input's type as a null pointer.
      for (const auto& input : node.input()) {
        if (!input.empty() && !scope.Defines(input)) {
          return Status(StatusCode::kInvalidModel,
                        fmt::format("input '{}' is neither an input or initializer of graph '{}' "
                                    "(or an enclosing one) nor any node's output",
                                    input, graph.name()))
              .WithNode(description);
        }
      }
      ORT_RETURN_IF_ERROR(ValidateNode(node, description, scope));
    }
    return Status::OK();
  }

 private:
  Status ValidateNode(const onnx::NodeProto& node, const std::string& description,
                      const RankScope& scope) {
    const std::string domain = NormalDomain(node.domain());
    auto opset = opsets_.find(domain);
    const auto& known = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    // A known domain (com.microsoft) that is not imported is read at its newest opset, as ONNX
    // Runtime does; an unknown one has no version to read it at.
    if (opset == opsets_.end() && known.count(domain) == 0) {
      return Status(StatusCode::kInvalidModel,
                    fmt::format("domain '{}' is not imported by the model (no opset_import entry) "
                                "and is unknown to this engine",
                                domain))
          .WithNode(description);
    }
    const auto known_domain = known.find(domain);
    const int64_t version = opset != opsets_.end()        ? opset->second
                            : known_domain != known.end() ? known_domain->second.second
                                                          : 0;
    const NodeContext context{node, description, domain, version, scope};
    const SchemaMatch match = FindSchema(node, domain, context.opset);
    // An ONNX op used at an opset before it existed has no schema to check it against, and
    // no kernel either; passes that trust its arity would still see it.
    if (match.schema == nullptr && domain.empty() && known_domain != known.end() &&
        version <= known_domain->second.second && !IsOrtOnnxDomainContribOp(node.op_type())) {
      const onnx::OpSchema* newest = onnx::OpSchemaRegistry::Schema(
          node.op_type(), static_cast<int>(known_domain->second.second), domain);
      if (newest != nullptr) {
        return Status(StatusCode::kInvalidModel,
                      fmt::format(
                          "{} does not exist in ONNX opset {} (the model's); its newest version "
                          "is from opset {}",
                          node.op_type(), version, newest->SinceVersion()))
            .WithNode(description);
      }
    }
    if (match.schema != nullptr)
      ORT_RETURN_IF_ERROR(CheckArity(context, *match.schema, match.exact));
    ORT_RETURN_IF_ERROR(CheckAttributes(context, match.exact ? match.schema : nullptr));
    ORT_RETURN_IF_ERROR(CheckOpAttributes(context));
    for (const auto& attribute : node.attribute()) {
      const Status data = CheckAttributeData(attribute);
      if (!data.ok()) {
        return Status(data.code(),
                      fmt::format("attribute '{}': {}", attribute.name(), data.message()))
            .WithNode(description);
      }
      if (attribute.has_g()) ORT_RETURN_IF_ERROR(Validate(attribute.g(), &scope));
      for (const auto& graph : attribute.graphs()) ORT_RETURN_IF_ERROR(Validate(graph, &scope));
    }
    return Status::OK();
  }

  Opsets opsets_;
};

}  // namespace

Status ValidateNodes(const onnx::ModelProto& model) {
  Opsets opsets;
  for (const auto& opset : model.opset_import()) {
    opsets[NormalDomain(opset.domain())] = opset.version();
  }
  return GraphValidator(std::move(opsets)).Validate(model.graph(), nullptr);
}

}  // namespace ort
