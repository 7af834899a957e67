// Conversion between onnx.GraphProto and the engine's Graph, recursing into subgraphs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "lib/common/file_writer.h"
#include "lib/common/status.h"
#include "lib/ir/graph.h"
#include "lib/onnx/tensor_proto.h"

namespace onnx {
class GraphProto;
class NodeProto;
}  // namespace onnx

namespace ort {

/// Fills `graph` from `proto`. Initializer data is moved out of `proto` where possible.
Status GraphFromProto(onnx::GraphProto& proto, Graph& graph, ExternalDataResolver* external);

/// Converts one node (subgraphs included); subgraphs become children of `owner`.
Result<NodeSpec> NodeSpecFromProto(onnx::NodeProto& proto, const Graph& owner,
                                   ExternalDataResolver* external);

/// Where large initializers go when a model is saved with external data. The data file replaces
/// `directory/file_name` only on Commit; a writer destroyed without it leaves that file as it was.
class ExternalDataWriter {
 public:
  /// Initializers of at least `threshold_bytes` go to `directory/file_name`.
  ExternalDataWriter(std::filesystem::path directory, std::string file_name,
                     size_t threshold_bytes);
  /// Appends the tensor's bytes to the data file and points `proto` at them when the tensor is
  /// large enough; returns false (leaving `proto` alone) otherwise.
  Result<bool> MaybeWrite(const Tensor& tensor, onnx::TensorProto* proto);
  /// Flushes the data file to storage without replacing the old one yet (see FileWriter).
  Status Finish();
  /// Replaces `directory/file_name` with the data written; nothing when no tensor was written.
  Status Commit();
  /// Whether any tensor went to the data file.
  bool wrote_data() const { return file_.has_value(); }

 private:
  std::filesystem::path directory_;
  std::string file_name_;
  size_t threshold_bytes_;
  std::optional<FileWriter> file_;
  uint64_t offset_ = 0;
};

struct GraphWriteOptions {
  /// Receives large initializers; null keeps every initializer inline.
  ExternalDataWriter* external = nullptr;
  /// Initializers larger than this are written without data (type and shape only), for type
  /// inference passes that only need small constants such as Reshape targets.
  size_t omit_data_above_bytes = SIZE_MAX;
};

/// Writes one node (subgraphs included) into `proto`.
Status NodeToProto(const Node& node, onnx::NodeProto* proto, const GraphWriteOptions& options);

/// Writes `graph` into `proto`.
Status GraphToProto(const Graph& graph, onnx::GraphProto* proto, const GraphWriteOptions& options);

}  // namespace ort
