#include "apps/ort/intermediates.h"

#include <filesystem>
#include <regex>
#include <set>

#include "lib/io/npy.h"

namespace ort::cli {

Result<std::vector<std::string>> MarkIntermediates(Model& model, const std::string& filter) {
  std::regex pattern;
  try {
    pattern = std::regex(filter, std::regex::ECMAScript);
  } catch (const std::regex_error& error) {
    return ORT_ERROR(kInvalidArgument, "--dump-filter '{}' is not a regular expression: {}", filter,
                     error.what());
  }
  Graph& graph = model.graph();
  ORT_ASSIGN_OR_RETURN(const std::vector<NodeIndex> order, graph.TopologicalOrder());
  std::vector<std::string> outputs = graph.outputs();
  const std::set<std::string> existing(outputs.begin(), outputs.end());
  std::vector<std::string> marked;
  for (const NodeIndex index : order) {
    for (const std::string& value : graph.GetNode(index)->outputs()) {
      if (value.empty() || existing.count(value) || !std::regex_search(value, pattern)) continue;
      marked.push_back(value);
      outputs.push_back(value);
    }
  }
  if (marked.empty()) {
    return ORT_ERROR(kInvalidArgument, "--dump-filter '{}' matches no node output of the model",
                     filter);
  }
  graph.set_outputs(std::move(outputs));
  return marked;
}

namespace {

std::string FileStem(const std::string& name) {
  std::string stem = name;
  for (char& c : stem) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
    if (!keep) c = '_';
  }
  // "." and ".." (or an empty name) would not name a file in the directory.
  if (stem.find_first_not_of('.') == std::string::npos) stem = "_" + stem;
  return stem;
}

}  // namespace

Result<size_t> WriteIntermediates(const std::string& directory,
                                  const std::vector<std::string>& names,
                                  const std::vector<Value>& values) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    return ORT_ERROR(kIoError, "cannot create --dump-intermediates '{}': {}", directory,
                     error.message());
  }
  std::set<std::string> used;
  size_t written = 0;
  for (size_t i = 0; i < names.size() && i < values.size(); ++i) {
    if (!values[i].IsTensor()) continue;
    const std::string stem = FileStem(names[i]);
    std::string file = stem;
    for (int suffix = 1; used.count(file); ++suffix) file = stem + "_" + std::to_string(suffix);
    used.insert(file);
    ORT_RETURN_IF_ERROR(WriteNpy((std::filesystem::path(directory) / (file + ".npy")).string(),
                                 values[i].tensor()));
    ++written;
  }
  return written;
}

}  // namespace ort::cli
