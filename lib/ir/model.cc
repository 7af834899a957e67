#include "lib/ir/model.h"

namespace ort {

Model::Model() : opsets_(std::make_shared<OpsetMap>()), graph_(std::make_unique<Graph>(opsets_)) {}

std::string Model::Metadata(std::string_view key) const {
  for (const auto& [name, value] : metadata_props) {
    if (name == key) return value;
  }
  return {};
}

void Model::SetMetadata(const std::string& key, std::string value) {
  for (auto& [name, existing] : metadata_props) {
    if (name == key) {
      existing = std::move(value);
      return;
    }
  }
  metadata_props.emplace_back(key, std::move(value));
}

}  // namespace ort
