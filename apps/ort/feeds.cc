#include "apps/ort/feeds.h"

#include <filesystem>
#include <map>
#include <random>

#include "apps/ort/common_options.h"
#include "lib/common/logging.h"
#include "lib/io/tensor_file.h"

namespace ort::cli {

void AddFeedOptions(CLI::App& command, FeedArgs& args) {
  command.add_option("--input", args.inputs, "input from a file: NAME=FILE (.npy or .pb)");
  command.add_option("--input-dir", args.input_dir,
                     "directory of input_<i>.pb files (ONNX test-data layout)");
  command.add_option("--shape", args.shapes, "shape of a random input: NAME=1x3x224x224");
  command.add_option("--seed", args.seed, "seed of random inputs");
}

namespace {

// The model's input names, comma separated, for messages.
std::string InputNames(const std::vector<ValueInfo>& infos) {
  std::string names;
  for (const auto& info : infos) names += (names.empty() ? "" : ", ") + info.name;
  return names;
}

const ValueType* DeclaredType(const std::vector<ValueInfo>& infos, const std::string& name) {
  for (const auto& info : infos) {
    if (info.name == name) return &info.type;
  }
  return nullptr;
}

Result<TensorShape> RandomShape(const ValueInfo& info,
                                const std::map<std::string, std::vector<int64_t>>& shapes) {
  auto given = shapes.find(info.name);
  if (given != shapes.end()) return TensorShape(given->second);
  if (!info.type.shape) {
    return ORT_ERROR(kInvalidArgument,
                     "input '{}' has no declared shape; give --shape {}=DIMS or --input", info.name,
                     info.name);
  }
  std::vector<int64_t> dims;
  for (const auto& dim : *info.type.shape) {
    if (dim.IsKnown()) {
      dims.push_back(dim.value);
    } else {
      ORT_LOG_WARNING(
          "input '{}': dimension '{}' is not fixed; using 1 (set it with --shape or "
          "--free-dim)",
          info.name, dim.param.empty() ? "?" : dim.param);
      dims.push_back(1);
    }
  }
  return TensorShape(std::move(dims));
}

// Random inputs are made before the session runs, so the session's tensor limit is applied here.
Status CheckRandomSize(const ValueInfo& info, const TensorShape& shape, size_t limit) {
  const DataType type = info.type.elem_type;
  auto bytes = TensorBytes(type, shape);
  if (!bytes.ok() || *bytes > limit) {
    return ORT_ERROR(kInvalidArgument,
                     "random input '{}' ({}{}) would need {}, above the max-tensor-bytes limit of "
                     "{}",
                     info.name, DataTypeName(type), shape.ToString(),
                     bytes.ok() ? FormatBytes(*bytes) : "more than int64 bytes",
                     FormatBytes(limit));
  }
  return Status::OK();
}

Result<Tensor> RandomTensor(DataType type, TensorShape shape, std::mt19937_64& rng) {
  ORT_ASSIGN_OR_RETURN(Tensor tensor, Tensor::Allocate(type, std::move(shape)));
  const int64_t count = tensor.NumElements();
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 9);
  if (IsFourBit(type)) {
    // Values 0..7 fit both int4 and uint4; an odd count leaves the padding nibble zero.
    std::uniform_int_distribution<int> nibble(0, 7);
    auto* bytes = static_cast<uint8_t*>(tensor.MutableRawData());
    for (int64_t i = 0; i < count; i += 2) {
      const int high = i + 1 < count ? nibble(rng) : 0;
      bytes[i / 2] = static_cast<uint8_t>(nibble(rng) | (high << 4));
    }
    return tensor;
  }
  Status status = DispatchByType<AllTensorTypes>(type, "random input", [&]<typename T>() {
    T* data = tensor.MutableData<T>();
    for (int64_t i = 0; i < count; ++i) {
      if constexpr (std::is_same_v<T, std::string>) {
        data[i] = std::to_string(small(rng));
      } else if constexpr (std::is_same_v<T, bool>) {
        data[i] = small(rng) % 2 == 0;
      } else if constexpr (std::is_integral_v<T>) {
        data[i] = static_cast<T>(small(rng));
      } else {
        data[i] = T(static_cast<float>(real(rng)));
      }
    }
    return Status::OK();
  });
  ORT_RETURN_IF_ERROR(status);
  return tensor;
}

}  // namespace

Result<std::vector<Feed>> BuildFeeds(const InferenceSession& session, const FeedArgs& args) {
  const std::vector<ValueInfo> infos = session.InputInfos();
  std::map<std::string, Feed> given;

  if (!args.input_dir.empty()) {
    std::error_code error;
    if (!std::filesystem::is_directory(args.input_dir, error)) {
      return ORT_ERROR(kNotFound, "--input-dir '{}' is not a directory", args.input_dir);
    }
    for (size_t i = 0;; ++i) {
      const auto path =
          std::filesystem::path(args.input_dir) / ("input_" + std::to_string(i) + ".pb");
      if (!std::filesystem::exists(path)) break;
      const ValueType* type = i < infos.size() ? &infos[i].type : nullptr;
      auto read = ReadValueFile(path.string(), type);
      if (!read.ok()) {
        return read.status().WithContext(i < infos.size() ? fmt::format("input '{}'", infos[i].name)
                                                          : std::string("input"));
      }
      NamedFileValue file = std::move(read).value();
      std::string name = file.name;
      if (name.empty() || DeclaredType(infos, name) == nullptr) {
        if (i >= infos.size()) {
          return ORT_ERROR(kInvalidArgument, "'{}': the model has only {} inputs", path.string(),
                           infos.size());
        }
        name = infos[i].name;
      }
      if (given.count(name)) {
        return ORT_ERROR(kInvalidArgument, "'{}' and '{}' both hold input '{}'", given[name].source,
                         path.string(), name);
      }
      given[name] = Feed{{name, std::move(file.value)}, path.string()};
    }
  }
  for (const auto& entry : args.inputs) {
    ORT_ASSIGN_OR_RETURN(auto assignment, SplitAssignment(entry, "--input"));
    const auto& [name, path] = assignment;
    const ValueType* type = DeclaredType(infos, name);
    if (type == nullptr) {
      return ORT_ERROR(kInvalidArgument, "--input {}: the model has no input '{}' (inputs: {})",
                       entry, name, InputNames(infos));
    }
    auto file = ReadValueFile(path, type);
    if (!file.ok()) return file.status().WithContext(fmt::format("input '{}'", name));
    given[name] = Feed{{name, std::move(file->value)}, path};
  }

  std::map<std::string, std::vector<int64_t>> shapes;
  for (const auto& entry : args.shapes) {
    ORT_ASSIGN_OR_RETURN(auto assignment, SplitAssignment(entry, "--shape"));
    // A misspelt name would leave the input random at its default shape, unnoticed.
    if (DeclaredType(infos, assignment.first) == nullptr) {
      return ORT_ERROR(kInvalidArgument, "--shape {}: the model has no input '{}' (inputs: {})",
                       entry, assignment.first, InputNames(infos));
    }
    ORT_ASSIGN_OR_RETURN(shapes[assignment.first], ParseDims(assignment.second));
  }

  std::mt19937_64 rng(args.seed);
  std::vector<Feed> feeds;
  for (const auto& info : infos) {
    auto it = given.find(info.name);
    if (it != given.end()) {
      feeds.push_back(std::move(it->second));
      continue;
    }
    if (!info.type.IsTensor()) {
      return ORT_ERROR(kInvalidArgument, "input '{}' ({}) must be given with --input", info.name,
                       info.type.ToString());
    }
    ORT_ASSIGN_OR_RETURN(TensorShape shape, RandomShape(info, shapes));
    ORT_RETURN_IF_ERROR(CheckRandomSize(info, shape, session.options().max_tensor_bytes));
    ORT_ASSIGN_OR_RETURN(Tensor tensor, RandomTensor(info.type.elem_type, std::move(shape), rng));
    feeds.push_back(Feed{{info.name, Value(std::move(tensor))}, "random"});
  }
  return feeds;
}

}  // namespace ort::cli
