// The ai.onnx schema history up to the newest opset the loader accepts: libonnx's own schemas for
// the opsets it knows (Debian's 1.12: 1..17), and for the newer ones the table
// test/data/onnx_schema_history.tsv that tools/gen_onnx_schema_history.py derives from onnx's
// sources.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

namespace ort::test {

/// One definition of an op: in force from opset `since` until the op's next definition.
struct SchemaVersion {
  int since = 0;
  /// onnx defines the op as a function (a FunctionBody or a context-dependent function).
  bool has_function = false;
  bool deprecated = false;
};

class OnnxSchemaHistory {
 public:
  /// Reads the table at `table_path`; ops and opsets it lacks come from libonnx.
  explicit OnnxSchemaHistory(const std::string& table_path);

  /// The definition of `op` in force at `opset`, or nullopt where onnx defines no such op yet.
  std::optional<SchemaVersion> At(const std::string& op, int opset) const;

  /// Every op the default domain defines at some opset.
  std::set<std::string> Ops() const;

  /// The newest opset libonnx knows; the table covers the ones after it.
  int libonnx_opset() const { return libonnx_opset_; }
  /// The oldest and newest opset that introduced a definition the table holds (0 when empty).
  int table_first_opset() const { return table_first_opset_; }
  int table_last_opset() const { return table_last_opset_; }

 private:
  int libonnx_opset_ = 0;
  int table_first_opset_ = 0;
  int table_last_opset_ = 0;
  std::map<std::string, std::map<int, SchemaVersion>> table_;  // op -> since -> definition
};

}  // namespace ort::test
