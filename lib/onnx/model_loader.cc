#include "lib/onnx/model_loader.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <climits>
#include <exception>
#include <filesystem>

#include "lib/common/logging.h"
#include "lib/common/mapped_file.h"
#include "lib/ir/graph_validation.h"
#include "lib/onnx/element_types.h"
#include "lib/onnx/graph_proto.h"
#include "lib/onnx/inference_guards.h"
#include "lib/onnx/local_functions.h"
#include "lib/onnx/model_proto.h"
#include "lib/onnx/node_validation.h"
#include "lib/onnx/type_constraints.h"

namespace ort {
namespace {

constexpr int kMaxProtoNesting = 1000;

int64_t MaxOpsetKnownToOnnx() {
  const auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto it = ranges.find("");
  return it == ranges.end() ? 0 : it->second.second;
}

Status ParseModelProto(const void* data, size_t size, const std::string& label,
                       onnx::ModelProto* proto) {
  if (size == 0) return ORT_ERROR(kInvalidModel, "{} is empty, not an ONNX model", label);
  if (size > static_cast<size_t>(INT_MAX)) {
    return ORT_ERROR(kInvalidModel,
                     "{} is {} bytes; protobuf models must stay under 2 GiB (use external data)",
                     label, size);
  }
  google::protobuf::io::ArrayInputStream array(data, static_cast<int>(size));
  google::protobuf::io::CodedInputStream coded(&array);
  coded.SetTotalBytesLimit(INT_MAX);
  // protobuf's default depth of 100 messages refuses valid models with ~32 nested If/Loop
  // bodies (3 messages per level); the raised bound still keeps parsing's recursion far from
  // the stack's end.
  coded.SetRecursionLimit(kMaxProtoNesting);
  if (!proto->ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage()) {
    return ORT_ERROR(kInvalidModel,
                     "{} is not a valid ONNX model (protobuf parsing failed: the file is "
                     "truncated or corrupt, or nests messages deeper than {} levels, about {} "
                     "subgraphs)",
                     label, kMaxProtoNesting, kMaxProtoNesting / 3);
  }
  return Status::OK();
}

Status CheckModelHeader(const onnx::ModelProto& proto, const std::string& label) {
  if (!proto.has_graph() || (proto.graph().node_size() == 0 && proto.graph().output_size() == 0)) {
    return ORT_ERROR(kInvalidModel, "{} is not an ONNX model (it has no graph)", label);
  }
  if (proto.ir_version() <= 0 || proto.ir_version() > kMaxIrVersion) {
    return ORT_ERROR(kInvalidModel, "{} has IR version {}; this engine supports 1 to {}", label,
                     proto.ir_version(), kMaxIrVersion);
  }
  if (proto.opset_import_size() == 0 && proto.ir_version() >= 3) {
    return ORT_ERROR(kInvalidModel, "{} imports no opset", label);
  }
  for (const auto& opset : proto.opset_import()) {
    const bool onnx_domain = opset.domain().empty() || opset.domain() == "ai.onnx";
    if (onnx_domain && (opset.version() < 1 || opset.version() > kMaxOnnxOpset)) {
      return ORT_ERROR(kInvalidModel, "{} imports ai.onnx opset {}; this engine supports 1 to {}",
                       label, opset.version(), kMaxOnnxOpset);
    }
  }
  return Status::OK();
}

bool CanInfer(const onnx::ModelProto& proto) {
  for (const auto& opset : proto.opset_import()) {
    if ((opset.domain().empty() || opset.domain() == "ai.onnx") &&
        opset.version() > MaxOpsetKnownToOnnx()) {
      return false;
    }
  }
  return true;
}

void InferShapesOnProto(onnx::ModelProto& proto, const std::string& label) {
  if (!CanInfer(proto)) {
    ORT_LOG_INFO(
        "{}: opset newer than the onnx library knows; element types by this engine's rules", label);
    return;
  }
  GuardOnnxInference();
  ClearNegativeDims(proto);
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0,
                                        /*data_prop=*/false);
    onnx::shape_inference::InferShapes(proto, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& error) {
    ORT_LOG_WARNING("{}: shape inference stopped early: {}", label, error.what());
  }
}

// Copies inferred value_info types from `proto` into `graph` and its subgraphs.
Status ApplyInferredTypes(const onnx::GraphProto& proto, Graph& graph) {
  for (const auto& info : proto.value_info()) {
    if (!info.has_type()) continue;
    ORT_ASSIGN_OR_RETURN(ValueType type, ValueTypeFromProto(info.type()));
    graph.SetValueType(info.name(), std::move(type));
  }
  for (const auto& output : proto.output()) {
    if (!output.has_type()) continue;
    ORT_ASSIGN_OR_RETURN(ValueType type, ValueTypeFromProto(output.type()));
    graph.SetValueType(output.name(), std::move(type));
  }
  std::unordered_map<std::string, Node*> by_name;
  for (Node* node : graph.Nodes()) by_name[node->name()] = node;
  for (const auto& node_proto : proto.node()) {
    auto it = by_name.find(node_proto.name());
    if (it == by_name.end()) continue;
    for (const auto& attribute : node_proto.attribute()) {
      Attribute* target = it->second->MutableAttribute(attribute.name());
      if (target == nullptr) continue;
      if (attribute.has_g() && target->g) {
        ORT_RETURN_IF_ERROR(ApplyInferredTypes(attribute.g(), *target->g));
      }
      for (int i = 0; i < attribute.graphs_size() && i < static_cast<int>(target->graphs.size());
           ++i) {
        ORT_RETURN_IF_ERROR(ApplyInferredTypes(attribute.graphs(i), *target->graphs[i]));
      }
    }
  }
  return Status::OK();
}

Result<std::unique_ptr<Model>> ConvertModel(onnx::ModelProto& proto, const std::string& label,
                                            const std::filesystem::path& base_directory,
                                            const LoadOptions& options) {
  ORT_RETURN_IF_ERROR(CheckModelHeader(proto, label));
  ORT_RETURN_IF_ERROR(InlineLocalFunctions(proto, label));
  // onnx's inference functions trust the nodes they infer: a zero stride divides by zero.
  Status status = ValidateNodes(proto);
  if (!status.ok()) return status.WithContext(label);
  if (options.infer_shapes) InferShapesOnProto(proto, label);

  auto model = std::make_unique<Model>();
  model->path = label;
  model->base_directory = base_directory;
  ORT_RETURN_IF_ERROR(ModelMetadataFromProto(proto, *model));
  ExternalDataResolver external(base_directory);
  status = GraphFromProto(*proto.mutable_graph(), model->graph(), &external);
  if (!status.ok()) return status.WithContext(label);
  ResolveSchemaVersions(model->graph());
  model->graph().ResolveOuterScope();
  if (options.infer_shapes && !CanInfer(proto)) InferElementTypes(model->graph());
  status = ValidateGraph(model->graph());
  if (status.ok() && options.infer_shapes && CanInfer(proto)) {
    status = CheckTypeConstraints(model->graph());
  }
  if (!status.ok()) return status.WithContext(label);
  return model;
}

}  // namespace

Result<std::unique_ptr<Model>> LoadModel(const std::string& path, const LoadOptions& options) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return ORT_ERROR(kIoError, "'{}' is a directory, not a model file", path);
  }
  auto file = MappedFile::Open(path);
  if (!file.ok()) return file.status();
  const std::string label = "model '" + path + "'";
  onnx::ModelProto proto;
  ORT_RETURN_IF_ERROR(ParseModelProto((*file)->data(), (*file)->size(), label, &proto));
  const auto directory = std::filesystem::path(path).parent_path();
  return ConvertModel(proto, label, directory.empty() ? "." : directory, options);
}

Result<std::unique_ptr<Model>> LoadModelFromBytes(const void* data, size_t size,
                                                  const std::string& base_directory,
                                                  const LoadOptions& options) {
  onnx::ModelProto proto;
  const std::string label = "model (in memory)";
  ORT_RETURN_IF_ERROR(ParseModelProto(data, size, label, &proto));
  return ConvertModel(proto, label, base_directory.empty() ? "." : base_directory, options);
}

void InferModelTypes(Model& model) {
  onnx::ModelProto proto;
  GraphWriteOptions write_options;
  write_options.omit_data_above_bytes = 1024;
  Status status = ModelToProto(model, &proto, write_options);
  if (status.ok()) {
    InferShapesOnProto(proto, model.path);
    status = ApplyInferredTypes(proto.graph(), model.graph());
    if (status.ok() && !CanInfer(proto)) InferElementTypes(model.graph());
  }
  if (!status.ok()) ORT_LOG_WARNING("{}: type inference skipped: {}", model.path, status.message());
}

void ResolveSchemaVersions(Graph& graph) {
  for (Node* node : graph.Nodes()) {
    const int64_t opset = graph.OpsetVersion(node->domain());
    if (opset > 0) {
      const auto* schema =
          onnx::OpSchemaRegistry::Schema(node->op_type(), static_cast<int>(opset), node->domain());
      if (schema != nullptr) node->set_since_version(schema->SinceVersion());
    }
    for (Graph* subgraph : node->Subgraphs()) ResolveSchemaVersions(*subgraph);
  }
}

}  // namespace ort
