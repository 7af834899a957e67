// A model: metadata, opset imports and the main graph.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

class Model {
 public:
  Model();

  Graph& graph() { return *graph_; }
  const Graph& graph() const { return *graph_; }
  OpsetMap& opsets() { return *opsets_; }
  const OpsetMap& opsets() const { return *opsets_; }

  int64_t ir_version = 8;
  std::string producer_name;
  std::string producer_version;
  std::string domain;
  int64_t model_version = 0;
  std::string doc_string;
  std::vector<std::pair<std::string, std::string>> metadata_props;

  /// Where the model was read from ("" when from memory); names the model in messages.
  std::string path;
  /// Directory that relative external-data locations resolve against.
  std::filesystem::path base_directory;

  /// Value of a metadata_props entry, or "" when absent.
  std::string Metadata(std::string_view key) const;
  void SetMetadata(const std::string& key, std::string value);

 private:
  std::shared_ptr<OpsetMap> opsets_;
  std::unique_ptr<Graph> graph_;
};

}  // namespace ort
