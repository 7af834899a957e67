// Model-level conversion to onnx.ModelProto and saving, so load -> save -> load round-trips.
#pragma once

#include <string>

#include "lib/common/status.h"
#include "lib/ir/model.h"
#include "lib/onnx/graph_proto.h"

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace ort {

/// Copies metadata and opset imports of `proto` into `model` (not the graph).
Status ModelMetadataFromProto(const onnx::ModelProto& proto, Model& model);

/// Writes `model` (metadata, opsets, graph) into `proto`.
Status ModelToProto(const Model& model, onnx::ModelProto* proto, const GraphWriteOptions& options);

struct SaveOptions {
  /// Initializers of at least this many bytes go to an external data file next to the model;
  /// SIZE_MAX keeps everything inline (models must then stay under 2 GiB), as does a `path` written
  /// in place (a device such as /dev/null: see WritesInPlace).
  size_t external_data_threshold_bytes = SIZE_MAX;
  /// External data file name, relative to the model's directory ("" = "<model file>.data").
  std::string external_data_file;
};

/// Saves `model` to `path`. The model and its external data file are each written in full before
/// either replaces its old version (see FileWriter). With external data enabled and no tensor
/// going there, a data file left at that name by an earlier save is removed.
Status SaveModel(const Model& model, const std::string& path, const SaveOptions& options = {});

/// Serializes `model` with every initializer inline.
Result<std::string> SerializeModel(const Model& model);

}  // namespace ort
