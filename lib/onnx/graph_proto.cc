#include "lib/onnx/graph_proto.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <unordered_set>

namespace ort {
namespace {

Status AttributeFromProto(onnx::AttributeProto& proto, const Graph& owner,
                          ExternalDataResolver* external, Attribute* attribute);

Result<std::unique_ptr<Graph>> SubgraphFromProto(onnx::GraphProto& proto, const Graph& owner,
                                                 ExternalDataResolver* external) {
  auto subgraph = std::make_unique<Graph>(owner.shared_opsets());
  ORT_RETURN_IF_ERROR(GraphFromProto(proto, *subgraph, external));
  return subgraph;
}

Status AttributeFromProto(onnx::AttributeProto& proto, const Graph& owner,
                          ExternalDataResolver* external, Attribute* attribute) {
  attribute->name = proto.name();
  attribute->doc_string = proto.doc_string();
  attribute->ref_attr_name = proto.ref_attr_name();
  attribute->type = static_cast<AttributeType>(proto.type());
  switch (proto.type()) {
    case onnx::AttributeProto::FLOAT:
      attribute->f = proto.f();
      break;
    case onnx::AttributeProto::INT:
      attribute->i = proto.i();
      break;
    case onnx::AttributeProto::STRING:
      attribute->s = proto.s();
      break;
    case onnx::AttributeProto::TENSOR: {
      ORT_ASSIGN_OR_RETURN(attribute->t, TensorFromProto(*proto.mutable_t(), external));
      break;
    }
    case onnx::AttributeProto::SPARSE_TENSOR: {
      ORT_ASSIGN_OR_RETURN(attribute->t, TensorFromSparseProto(proto.sparse_tensor(), external));
      break;
    }
    case onnx::AttributeProto::GRAPH: {
      ORT_ASSIGN_OR_RETURN(attribute->g, SubgraphFromProto(*proto.mutable_g(), owner, external));
      break;
    }
    case onnx::AttributeProto::FLOATS:
      attribute->floats.assign(proto.floats().begin(), proto.floats().end());
      break;
    case onnx::AttributeProto::INTS:
      attribute->ints.assign(proto.ints().begin(), proto.ints().end());
      break;
    case onnx::AttributeProto::STRINGS:
      attribute->strings.assign(proto.strings().begin(), proto.strings().end());
      break;
    case onnx::AttributeProto::TENSORS:
      for (auto& tensor : *proto.mutable_tensors()) {
        ORT_ASSIGN_OR_RETURN(Tensor converted, TensorFromProto(tensor, external));
        attribute->tensors.push_back(std::move(converted));
      }
      break;
    case onnx::AttributeProto::SPARSE_TENSORS:
      for (const auto& tensor : proto.sparse_tensors()) {
        ORT_ASSIGN_OR_RETURN(Tensor converted, TensorFromSparseProto(tensor, external));
        attribute->tensors.push_back(std::move(converted));
      }
      break;
    case onnx::AttributeProto::GRAPHS:
      for (auto& graph : *proto.mutable_graphs()) {
        ORT_ASSIGN_OR_RETURN(auto subgraph, SubgraphFromProto(graph, owner, external));
        attribute->graphs.push_back(std::move(subgraph));
      }
      break;
    case onnx::AttributeProto::TYPE_PROTO: {
      ORT_ASSIGN_OR_RETURN(ValueType type, ValueTypeFromProto(proto.tp()));
      attribute->type_protos.push_back(std::move(type));
      break;
    }
    case onnx::AttributeProto::TYPE_PROTOS:
      for (const auto& tp : proto.type_protos()) {
        ORT_ASSIGN_OR_RETURN(ValueType type, ValueTypeFromProto(tp));
        attribute->type_protos.push_back(std::move(type));
      }
      break;
    default:
      if (attribute->ref_attr_name.empty()) {
        return ORT_ERROR(kInvalidModel, "attribute '{}' has no type", proto.name());
      }
  }
  return Status::OK();
}

Status AddTypedValue(const onnx::ValueInfoProto& proto, Graph& graph) {
  if (proto.name().empty()) return ORT_ERROR(kInvalidModel, "a graph value has an empty name");
  if (!proto.has_type()) return Status::OK();
  ORT_ASSIGN_OR_RETURN(ValueType type, ValueTypeFromProto(proto.type()));
  graph.SetValueType(proto.name(), std::move(type));
  return Status::OK();
}

}  // namespace

Result<NodeSpec> NodeSpecFromProto(onnx::NodeProto& proto, const Graph& owner,
                                   ExternalDataResolver* external) {
  NodeSpec spec;
  spec.name = proto.name();
  spec.op_type = proto.op_type();
  spec.domain = proto.domain();
  spec.inputs.assign(proto.input().begin(), proto.input().end());
  spec.outputs.assign(proto.output().begin(), proto.output().end());
  for (auto& attribute_proto : *proto.mutable_attribute()) {
    Attribute attribute;
    Status status = AttributeFromProto(attribute_proto, owner, external, &attribute);
    if (!status.ok()) return status.WithContext("node '" + spec.name + "' (" + spec.op_type + ")");
    spec.attributes.push_back(std::move(attribute));
  }
  return spec;
}

Status GraphFromProto(onnx::GraphProto& proto, Graph& graph, ExternalDataResolver* external) {
  graph.set_name(proto.name());
  graph.set_doc_string(proto.doc_string());

  for (const auto& value : proto.value_info()) ORT_RETURN_IF_ERROR(AddTypedValue(value, graph));
  for (auto& initializer : *proto.mutable_initializer()) {
    const std::string name = initializer.name();
    if (name.empty())
      return ORT_ERROR(kInvalidModel, "graph '{}' has an unnamed initializer", proto.name());
    if (graph.GetInitializer(name) != nullptr) {
      return ORT_ERROR(kInvalidModel, "initializer '{}' is defined twice", name);
    }
    ORT_ASSIGN_OR_RETURN(Tensor tensor, TensorFromProto(initializer, external));
    graph.AddInitializer(name, std::move(tensor));
  }
  for (const auto& sparse : proto.sparse_initializer()) {
    ORT_ASSIGN_OR_RETURN(Tensor tensor, TensorFromSparseProto(sparse, external));
    graph.AddInitializer(sparse.values().name(), std::move(tensor));
  }

  std::vector<std::string> inputs;
  for (const auto& input : proto.input()) {
    ORT_RETURN_IF_ERROR(AddTypedValue(input, graph));
    inputs.push_back(input.name());
  }
  std::vector<std::string> outputs;
  for (const auto& output : proto.output()) {
    ORT_RETURN_IF_ERROR(AddTypedValue(output, graph));
    outputs.push_back(output.name());
  }
  graph.set_inputs(std::move(inputs));
  graph.set_outputs(std::move(outputs));

  std::unordered_set<std::string> node_names;
  for (auto& node_proto : *proto.mutable_node()) {
    ORT_ASSIGN_OR_RETURN(NodeSpec spec, NodeSpecFromProto(node_proto, graph, external));
    if (spec.name.empty() || !node_names.insert(spec.name).second) {
      // Unnamed (or duplicate-named) nodes get a stable name so messages and profiles can point
      // at them.
      spec.name = (node_proto.name().empty() ? node_proto.op_type() : node_proto.name()) + "_" +
                  std::to_string(graph.MaxNodeIndex());
      node_names.insert(spec.name);
    }
    for (const auto& output : spec.outputs) {
      if (!output.empty() && graph.Producer(output) != nullptr) {
        return ORT_ERROR(kInvalidModel, "value '{}' is produced by two nodes ('{}' and '{}')",
                         output, graph.Producer(output)->name(), spec.name);
      }
    }
    Node& node = graph.AddNode(std::move(spec));
    node.set_doc_string(node_proto.doc_string());
  }
  return Status::OK();
}

ExternalDataWriter::ExternalDataWriter(std::filesystem::path directory, std::string file_name,
                                       size_t threshold_bytes)
    : directory_(std::move(directory)),
      file_name_(std::move(file_name)),
      threshold_bytes_(threshold_bytes) {}

Result<bool> ExternalDataWriter::MaybeWrite(const Tensor& tensor, onnx::TensorProto* proto) {
  if (tensor.dtype() == DataType::kString || tensor.SizeInBytes() < threshold_bytes_) return false;
  if (!file_) {
    auto opened = FileWriter::Open((directory_ / file_name_).string());
    if (!opened.ok()) return opened.status().WithContext("external data file");
    file_.emplace(std::move(opened).value());
  }
  // Offsets aligned to 64 bytes let the loader use the mapped data in place.
  constexpr uint64_t kAlignment = 64;
  const uint64_t padding = (kAlignment - offset_ % kAlignment) % kAlignment;
  static const char kZeros[kAlignment] = {};
  ORT_RETURN_IF_ERROR(file_->Write(std::string_view(kZeros, padding)));
  offset_ += padding;
  ORT_RETURN_IF_ERROR(file_->Write(
      std::string_view(static_cast<const char*>(tensor.RawData()), tensor.SizeInBytes())));
  proto->clear_raw_data();
  proto->set_data_location(onnx::TensorProto_DataLocation_EXTERNAL);
  auto add_entry = [proto](const std::string& key, const std::string& value) {
    auto* entry = proto->add_external_data();
    entry->set_key(key);
    entry->set_value(value);
  };
  add_entry("location", file_name_);
  add_entry("offset", std::to_string(offset_));
  add_entry("length", std::to_string(tensor.SizeInBytes()));
  offset_ += tensor.SizeInBytes();
  return true;
}

Status ExternalDataWriter::Finish() { return file_ ? file_->Finish() : Status::OK(); }

Status ExternalDataWriter::Commit() { return file_ ? file_->Commit() : Status::OK(); }

namespace {

Status WriteTensor(const Tensor& tensor, const std::string& name, onnx::TensorProto* proto,
                   const GraphWriteOptions& options) {
  if (tensor.SizeInBytes() > options.omit_data_above_bytes) {
    proto->Clear();
    proto->set_name(name);
    proto->set_data_type(static_cast<int32_t>(tensor.dtype()));
    for (int64_t d : tensor.shape().dims()) proto->add_dims(d);
    return Status::OK();
  }
  if (ExternalDataWriter* external = options.external) {
    onnx::TensorProto header;
    header.set_name(name);
    header.set_data_type(static_cast<int32_t>(tensor.dtype()));
    for (int64_t d : tensor.shape().dims()) header.add_dims(d);
    ORT_ASSIGN_OR_RETURN(bool written, external->MaybeWrite(tensor, &header));
    if (written) {
      *proto = std::move(header);
      return Status::OK();
    }
  }
  TensorToProto(tensor, name, proto);
  return Status::OK();
}

Status AttributeToProto(const Attribute& attribute, onnx::AttributeProto* proto,
                        const GraphWriteOptions& options) {
  proto->set_name(attribute.name);
  if (!attribute.doc_string.empty()) proto->set_doc_string(attribute.doc_string);
  if (!attribute.ref_attr_name.empty()) proto->set_ref_attr_name(attribute.ref_attr_name);
  const AttributeType type = attribute.type == AttributeType::kSparseTensor ? AttributeType::kTensor
                             : attribute.type == AttributeType::kSparseTensors
                                 ? AttributeType::kTensors
                                 : attribute.type;
  proto->set_type(static_cast<onnx::AttributeProto_AttributeType>(type));
  switch (type) {
    case AttributeType::kFloat:
      proto->set_f(attribute.f);
      break;
    case AttributeType::kInt:
      proto->set_i(attribute.i);
      break;
    case AttributeType::kString:
      proto->set_s(attribute.s);
      break;
    case AttributeType::kTensor:
      ORT_RETURN_IF_ERROR(WriteTensor(attribute.t, "", proto->mutable_t(), options));
      break;
    case AttributeType::kGraph:
      ORT_RETURN_IF_ERROR(GraphToProto(*attribute.g, proto->mutable_g(), options));
      break;
    case AttributeType::kFloats:
      for (float v : attribute.floats) proto->add_floats(v);
      break;
    case AttributeType::kInts:
      for (int64_t v : attribute.ints) proto->add_ints(v);
      break;
    case AttributeType::kStrings:
      for (const auto& v : attribute.strings) proto->add_strings(v);
      break;
    case AttributeType::kTensors:
      for (const auto& t : attribute.tensors) {
        ORT_RETURN_IF_ERROR(WriteTensor(t, "", proto->add_tensors(), options));
      }
      break;
    case AttributeType::kGraphs:
      for (const auto& g : attribute.graphs) {
        ORT_RETURN_IF_ERROR(GraphToProto(*g, proto->add_graphs(), options));
      }
      break;
    case AttributeType::kTypeProto:
      if (!attribute.type_protos.empty())
        ValueTypeToProto(attribute.type_protos[0], proto->mutable_tp());
      break;
    case AttributeType::kTypeProtos:
      for (const auto& tp : attribute.type_protos) ValueTypeToProto(tp, proto->add_type_protos());
      break;
    default:
      break;
  }
  return Status::OK();
}

void WriteValueInfo(const Graph& graph, const std::string& name, onnx::ValueInfoProto* proto) {
  proto->set_name(name);
  const ValueInfo* info = graph.FindValueInfo(name);
  if (info != nullptr && info->type.kind != ValueType::Kind::kUnknown) {
    ValueTypeToProto(info->type, proto->mutable_type());
  }
}

}  // namespace

Status NodeToProto(const Node& node, onnx::NodeProto* proto, const GraphWriteOptions& options) {
  proto->set_name(node.name());
  proto->set_op_type(node.op_type());
  if (!node.domain().empty()) proto->set_domain(node.domain());
  if (!node.doc_string().empty()) proto->set_doc_string(node.doc_string());
  for (const auto& input : node.inputs()) proto->add_input(input);
  for (const auto& output : node.outputs()) proto->add_output(output);
  for (const auto& [name, attribute] : node.attributes()) {
    ORT_RETURN_IF_ERROR(AttributeToProto(attribute, proto->add_attribute(), options));
  }
  return Status::OK();
}

Status GraphToProto(const Graph& graph, onnx::GraphProto* proto, const GraphWriteOptions& options) {
  proto->Clear();
  proto->set_name(graph.name());
  if (!graph.doc_string().empty()) proto->set_doc_string(graph.doc_string());
  for (const auto& [name, tensor] : graph.initializers()) {
    ORT_RETURN_IF_ERROR(WriteTensor(tensor, name, proto->add_initializer(), options));
  }
  std::unordered_set<std::string> declared;
  for (const auto& input : graph.inputs()) {
    WriteValueInfo(graph, input, proto->add_input());
    declared.insert(input);
  }
  for (const auto& output : graph.outputs()) {
    WriteValueInfo(graph, output, proto->add_output());
    declared.insert(output);
  }
  ORT_ASSIGN_OR_RETURN(std::vector<NodeIndex> order, graph.TopologicalOrder());
  for (NodeIndex index : order) {
    ORT_RETURN_IF_ERROR(NodeToProto(*graph.GetNode(index), proto->add_node(), options));
  }
  std::vector<std::string> typed;
  for (const auto& [name, info] : graph.value_infos()) {
    if (!declared.count(name) && graph.Producer(name) != nullptr &&
        info.type.kind != ValueType::Kind::kUnknown) {
      typed.push_back(name);
    }
  }
  std::sort(typed.begin(), typed.end());
  for (const auto& name : typed) WriteValueInfo(graph, name, proto->add_value_info());
  return Status::OK();
}

}  // namespace ort
