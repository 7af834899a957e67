#include "test/providers/cpu/onnx_schema_history.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

namespace ort::test {

OnnxSchemaHistory::OnnxSchemaHistory(const std::string& table_path) {
  const auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  const auto onnx_range = ranges.find("");
  libonnx_opset_ = onnx_range == ranges.end() ? 0 : onnx_range->second.second;
  std::ifstream table(table_path);
  std::string line;
  while (std::getline(table, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string op;
    SchemaVersion version;
    fields >> op >> version.since >> version.has_function >> version.deprecated;
    if (!fields) continue;
    table_[op][version.since] = version;
    table_first_opset_ =
        table_first_opset_ == 0 ? version.since : std::min(table_first_opset_, version.since);
    table_last_opset_ = std::max(table_last_opset_, version.since);
  }
}

std::optional<SchemaVersion> OnnxSchemaHistory::At(const std::string& op, int opset) const {
  if (opset > libonnx_opset_) {
    const auto versions = table_.find(op);
    if (versions != table_.end()) {
      const auto after = versions->second.upper_bound(opset);
      if (after != versions->second.begin()) return std::prev(after)->second;
    }
  }
  const onnx::OpSchema* schema =
      onnx::OpSchemaRegistry::Schema(op, std::min(opset, libonnx_opset_), "");
  if (schema == nullptr) return std::nullopt;
  return SchemaVersion{schema->SinceVersion(),
                       schema->HasFunction() || schema->HasContextDependentFunction(),
                       schema->Deprecated()};
}

std::set<std::string> OnnxSchemaHistory::Ops() const {
  std::set<std::string> ops;
  for (const onnx::OpSchema& schema : onnx::OpSchemaRegistry::get_all_schemas()) {
    if (schema.domain().empty()) ops.insert(schema.Name());
  }
  for (const auto& [op, versions] : table_) ops.insert(op);
  return ops;
}

}  // namespace ort::test
