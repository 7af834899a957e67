#include "lib/onnx/model_proto.h"

#include <onnx/onnx_pb.h>

#include <climits>
#include <filesystem>

#include "lib/common/file_writer.h"

namespace ort {

Status ModelMetadataFromProto(const onnx::ModelProto& proto, Model& model) {
  model.ir_version = proto.ir_version();
  model.producer_name = proto.producer_name();
  model.producer_version = proto.producer_version();
  model.domain = proto.domain();
  model.model_version = proto.model_version();
  model.doc_string = proto.doc_string();
  for (const auto& entry : proto.metadata_props()) {
    model.metadata_props.emplace_back(entry.key(), entry.value());
  }
  for (const auto& opset : proto.opset_import()) {
    const std::string domain = opset.domain() == "ai.onnx" ? std::string() : opset.domain();
    model.opsets()[domain] = opset.version();
  }
  // IR version 1-2 models predate opset_import and mean ai.onnx opset 1.
  if (model.opsets().empty()) model.opsets()[""] = 1;
  return Status::OK();
}

Status ModelToProto(const Model& model, onnx::ModelProto* proto, const GraphWriteOptions& options) {
  proto->Clear();
  proto->set_ir_version(model.ir_version);
  if (!model.producer_name.empty()) proto->set_producer_name(model.producer_name);
  if (!model.producer_version.empty()) proto->set_producer_version(model.producer_version);
  if (!model.domain.empty()) proto->set_domain(model.domain);
  if (model.model_version != 0) proto->set_model_version(model.model_version);
  if (!model.doc_string.empty()) proto->set_doc_string(model.doc_string);
  for (const auto& [key, value] : model.metadata_props) {
    auto* entry = proto->add_metadata_props();
    entry->set_key(key);
    entry->set_value(value);
  }
  for (const auto& [domain, version] : model.opsets()) {
    auto* opset = proto->add_opset_import();
    opset->set_domain(domain);
    opset->set_version(version);
  }
  return GraphToProto(model.graph(), proto->mutable_graph(), options);
}

Status SaveModel(const Model& model, const std::string& path, const SaveOptions& options) {
  const std::filesystem::path target(path);
  std::string data_file = options.external_data_file;
  if (data_file.empty()) data_file = target.filename().string() + ".data";
  const std::filesystem::path directory = target.parent_path().empty() ? "." : target.parent_path();
  ExternalDataWriter writer(directory, data_file, options.external_data_threshold_bytes);
  GraphWriteOptions write_options;
  const bool external = options.external_data_threshold_bytes != SIZE_MAX && !WritesInPlace(path);
  if (external) write_options.external = &writer;
  onnx::ModelProto proto;
  ORT_RETURN_IF_ERROR(ModelToProto(model, &proto, write_options));
  if (proto.ByteSizeLong() > static_cast<size_t>(INT_MAX)) {
    return ORT_ERROR(kInvalidArgument,
                     "model is larger than 2 GiB; save it with an external data threshold");
  }
  std::string bytes;
  if (!proto.SerializeToString(&bytes)) {
    return ORT_ERROR(kIoError, "failed to serialize the model for '{}'", path);
  }
  // Both files are written in full before either replaces its old version, so a failure leaves
  // the old model and its data as they were. The data goes first: the new model never points at
  // a data file that is not there yet.
  ORT_RETURN_IF_ERROR(writer.Finish());
  ORT_ASSIGN_OR_RETURN(FileWriter model_file, FileWriter::Open(path));
  ORT_RETURN_IF_ERROR(model_file.Write(bytes));
  ORT_RETURN_IF_ERROR(model_file.Finish());
  ORT_RETURN_IF_ERROR(writer.Commit());
  ORT_RETURN_IF_ERROR(model_file.Commit());
  if (external && !writer.wrote_data()) {
    // A data file from an earlier save would otherwise outlive the model that used it. Unlinking
    // (not truncating) keeps intact weights a loaded model still maps from it.
    std::error_code error;
    std::filesystem::remove(directory / data_file, error);
  }
  return Status::OK();
}

Result<std::string> SerializeModel(const Model& model) {
  onnx::ModelProto proto;
  ORT_RETURN_IF_ERROR(ModelToProto(model, &proto, GraphWriteOptions{}));
  std::string bytes;
  if (!proto.SerializeToString(&bytes)) {
    return ORT_ERROR(kFail, "failed to serialize the model");
  }
  return bytes;
}

}  // namespace ort
