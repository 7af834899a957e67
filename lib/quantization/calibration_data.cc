#include "lib/quantization/calibration_data.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "lib/io/tensor_file.h"

namespace ort {
namespace {

namespace fs = std::filesystem;

std::string InputNames(const std::vector<ValueInfo>& inputs) {
  std::string names;
  for (const ValueInfo& info : inputs) names += (names.empty() ? "" : ", ") + info.name;
  return names;
}

const ValueInfo* FindInput(const std::vector<ValueInfo>& inputs, const std::string& name) {
  for (const ValueInfo& info : inputs) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

// A file of the set layout: NAME.npy, or input_<i>.pb.
bool IsSetFile(const fs::path& path) {
  const std::string name = path.filename().string();
  return path.extension() == ".npy" || (name.starts_with("input_") && path.extension() == ".pb");
}

bool HoldsSetFiles(const fs::path& directory) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    if (entry.is_regular_file(error) && IsSetFile(entry.path())) return true;
  }
  return false;
}

Status CheckValue(const ValueInfo& input, const Value& value, const std::string& file) {
  const ValueType& type = input.type;
  bool matches = value.IsTensor() && type.IsTensor() && value.tensor().dtype() == type.elem_type;
  if (matches && type.shape) {
    const auto& dims = value.tensor().shape().dims();
    matches = dims.size() == type.shape->size();
    for (size_t d = 0; matches && d < dims.size(); ++d) {
      matches = !(*type.shape)[d].IsKnown() || (*type.shape)[d].value == dims[d];
    }
  }
  if (matches) return Status::OK();
  return ORT_ERROR(kInvalidArgument, "calibration file '{}': input '{}' is {}, the file holds {}",
                   file, input.name, type.ToString(), value.Describe());
}

Result<CalibrationSet> ReadSet(const fs::path& directory, const std::vector<ValueInfo>& inputs) {
  std::map<std::string, std::pair<Value, std::string>> given;  // input -> value, file
  auto add = [&](const std::string& name, Value value, const std::string& file) -> Status {
    const ValueInfo* input = FindInput(inputs, name);
    if (input == nullptr) {
      return ORT_ERROR(kInvalidArgument,
                       "calibration file '{}' matches no model input (mismatched input names; the "
                       "model's inputs: {})",
                       file, InputNames(inputs));
    }
    ORT_RETURN_IF_ERROR(CheckValue(*input, value, file));
    if (given.count(name)) {
      return ORT_ERROR(kInvalidArgument, "calibration files '{}' and '{}' both hold input '{}'",
                       given[name].second, file, name);
    }
    given[name] = {std::move(value), file};
    return Status::OK();
  };

  std::vector<fs::path> files;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    if (entry.is_regular_file(error) && IsSetFile(entry.path())) files.push_back(entry.path());
  }
  if (error) {
    return ORT_ERROR(kIoError, "cannot list calibration directory '{}': {}", directory.string(),
                     error.message());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    if (path.extension() != ".npy") continue;
    ORT_ASSIGN_OR_RETURN(NamedFileValue file, ReadValueFile(path.string()));
    ORT_RETURN_IF_ERROR(add(path.stem().string(), std::move(file.value), path.string()));
  }
  for (size_t i = 0;; ++i) {
    const fs::path path = directory / ("input_" + std::to_string(i) + ".pb");
    if (!fs::exists(path, error)) break;
    const ValueType* expected = i < inputs.size() ? &inputs[i].type : nullptr;
    ORT_ASSIGN_OR_RETURN(NamedFileValue file, ReadValueFile(path.string(), expected));
    // Unnamed tensors (and names of another model's inputs) go by position, as `ort run
    // --input-dir` reads them.
    std::string name = file.name;
    if (name.empty() || (FindInput(inputs, name) == nullptr && i < inputs.size())) {
      name = i < inputs.size() ? inputs[i].name : name;
    }
    ORT_RETURN_IF_ERROR(add(name, std::move(file.value), path.string()));
  }

  CalibrationSet set;
  for (const ValueInfo& input : inputs) {
    auto it = given.find(input.name);
    if (it == given.end()) {
      return ORT_ERROR(kInvalidArgument,
                       "calibration directory '{}' has no file for input '{}' ({}.npy or "
                       "input_<i>.pb)",
                       directory.string(), input.name, input.name);
    }
    set.emplace_back(input.name, std::move(it->second.first));
  }
  return set;
}

}  // namespace

Result<std::vector<CalibrationSet>> ReadCalibrationSets(std::span<const std::string> directories,
                                                        const std::vector<ValueInfo>& inputs) {
  std::vector<CalibrationSet> sets;
  for (const std::string& name : directories) {
    const fs::path directory(name);
    std::error_code error;
    if (!fs::is_directory(directory, error)) {
      return ORT_ERROR(kNotFound, "calibration directory '{}' does not exist or is not a directory",
                       name);
    }
    if (HoldsSetFiles(directory)) {
      ORT_ASSIGN_OR_RETURN(CalibrationSet set, ReadSet(directory, inputs));
      sets.push_back(std::move(set));
      continue;
    }
    std::vector<fs::path> subdirectories;
    for (const auto& entry : fs::directory_iterator(directory, error)) {
      if (entry.is_directory(error) && HoldsSetFiles(entry.path())) {
        subdirectories.push_back(entry.path());
      }
    }
    if (subdirectories.empty()) {
      return ORT_ERROR(kNotFound,
                       "calibration directory '{}' holds no NAME.npy or input_<i>.pb files, nor "
                       "subdirectories of them",
                       name);
    }
    std::sort(subdirectories.begin(), subdirectories.end());
    for (const fs::path& subdirectory : subdirectories) {
      ORT_ASSIGN_OR_RETURN(CalibrationSet set, ReadSet(subdirectory, inputs));
      sets.push_back(std::move(set));
    }
  }
  return sets;
}

}  // namespace ort
