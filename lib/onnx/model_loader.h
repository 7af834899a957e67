// Loading ONNX models: protobuf parsing (memory-mapped, no 64 MB limit), sanity checks, onnx's
// type and shape inference, and conversion to the IR with external data resolved in place.
#pragma once

#include <memory>
#include <string>

#include "lib/common/status.h"
#include "lib/ir/model.h"

namespace ort {

/// Highest ai.onnx opset this engine accepts (onnx 1.21's opset 26); the kernel-registry
/// schema-history test checks every kernel range up to it.
inline constexpr int64_t kMaxOnnxOpset = 26;
/// Highest ONNX IR version this engine accepts.
inline constexpr int64_t kMaxIrVersion = 11;

struct LoadOptions {
  /// Run onnx's type and shape inference (skipped when the model's ai.onnx opset is newer than
  /// the onnx library knows).
  bool infer_shapes = true;
};

/// Loads the model file at `path`; external data resolves relative to its directory.
Result<std::unique_ptr<Model>> LoadModel(const std::string& path, const LoadOptions& options = {});

/// Loads a serialized ModelProto from memory; external data resolves against `base_directory`.
Result<std::unique_ptr<Model>> LoadModelFromBytes(const void* data, size_t size,
                                                  const std::string& base_directory,
                                                  const LoadOptions& options = {});

/// Runs onnx type/shape inference over `model` again (after free-dimension overrides or graph
/// edits) and records the inferred types. Failures are logged, not returned: inference is an aid.
void InferModelTypes(Model& model);

/// Sets each node's since_version from onnx's schemas (left at -1 for ops onnx does not know).
void ResolveSchemaVersions(Graph& graph);

}  // namespace ort
