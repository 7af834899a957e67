#include "apps/ort/feeds.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string_view>

#include "apps/ort/common_options.h"
#include "lib/common/logging.h"
#include "lib/io/tensor_file.h"
#include "lib/ir/index_bounds.h"

namespace ort::cli {

void AddFeedOptions(CLI::App& command, FeedArgs& args) {
  command.add_option("--input", args.inputs, "input from a file: NAME=FILE (.npy or .pb)");
  command.add_option("--input-dir", args.input_dir,
                     "directory of input_<i>.pb files (ONNX test-data layout)");
  command.add_option("--shape", args.shapes, "shape of a random input: NAME=1x3x224x224");
  command.add_option("--seed", args.seed, "seed of random inputs");
  command.add_option("--input-range", args.ranges,
                     "values of a random input: NAME=LO:HI (integers in [LO, HI], floats in "
                     "[LO, HI); default: indices within the table they index, other integers "
                     "0:9, floats -1:1)");
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
      const int64_t value = DefaultDimension(dim.param);
      ORT_LOG_WARNING(
          "input '{}': dimension '{}' is not fixed; using {} (set it with --shape or "
          "--free-dim)",
          info.name, dim.param.empty() ? "?" : dim.param, value);
      dims.push_back(value);
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

struct ValueRange {
  double low = -1.0;
  double high = 1.0;
};

bool IsIntegerType(DataType type) { return IsSignedInteger(type) || IsUnsignedInteger(type); }

// A whole string as a double; nullopt if anything else is there.
std::optional<double> ParseNumber(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "LO:HI" with LO <= HI (LO < HI for floats, whose range is half open).
Result<ValueRange> ParseRange(const std::string& entry, std::string_view text, DataType type) {
  const size_t colon = text.find(':');
  const auto low =
      colon == std::string_view::npos ? std::nullopt : ParseNumber(text.substr(0, colon));
  const auto high =
      colon == std::string_view::npos ? std::nullopt : ParseNumber(text.substr(colon + 1));
  if (!low || !high) {
    return ORT_ERROR(kInvalidArgument, "--input-range {}: expected NAME=LO:HI, e.g. ids=0:999",
                     entry);
  }
  const bool integer = IsIntegerType(type);
  if (!std::isfinite(*low) || !std::isfinite(*high) || (integer ? *low > *high : *low >= *high)) {
    return ORT_ERROR(kInvalidArgument, "--input-range {}: LO must be below HI", entry);
  }
  return ValueRange{*low, *high};
}

std::string DescribeRange(DataType type, const ValueRange& range) {
  if (IsIntegerType(type)) return fmt::format("random in [{}, {}]", range.low, range.high);
  if (IsFloatingPoint(type)) return fmt::format("random in [{}, {})", range.low, range.high);
  return "random";
}

Result<Tensor> RandomTensor(DataType type, TensorShape shape, const ValueRange& range,
                            std::mt19937_64& rng) {
  ORT_ASSIGN_OR_RETURN(Tensor tensor, Tensor::Allocate(type, std::move(shape)));
  const int64_t count = tensor.NumElements();
  std::uniform_real_distribution<double> real(range.low, range.high);
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
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // The range clamped to T, so that a bound past the type's limits cannot wrap.
      const double type_low = static_cast<double>(std::numeric_limits<T>::lowest());
      const double type_high = static_cast<double>(std::numeric_limits<T>::max());
      std::uniform_int_distribution<int64_t> integer(
          static_cast<int64_t>(std::clamp(std::ceil(range.low), type_low, type_high)),
          static_cast<int64_t>(std::clamp(std::floor(range.high), type_low, type_high)));
      for (int64_t i = 0; i < count; ++i) data[i] = static_cast<T>(integer(rng));
    } else {
      for (int64_t i = 0; i < count; ++i) {
        if constexpr (std::is_same_v<T, std::string>) {
          data[i] = std::to_string(small(rng));
        } else if constexpr (std::is_same_v<T, bool>) {
          data[i] = small(rng) % 2 == 0;
        } else {
          data[i] = T(static_cast<float>(real(rng)));
        }
      }
    }
    return Status::OK();
  });
  ORT_RETURN_IF_ERROR(status);
  return tensor;
}

}  // namespace

int64_t DefaultDimension(std::string_view param) {
  std::string lower(param);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find("past") != std::string::npos ? 0 : 1;
}

Result<std::vector<FeedArgs>> ShapeSweep(const FeedArgs& args) {
  std::vector<std::pair<std::string, std::vector<std::string>>> shapes;
  size_t points = 1;
  for (const auto& entry : args.shapes) {
    ORT_ASSIGN_OR_RETURN(auto assignment, SplitAssignment(entry, "--shape"));
    std::vector<std::string> values;
    size_t start = 0;
    while (start <= assignment.second.size()) {
      const size_t comma = std::min(assignment.second.find(',', start), assignment.second.size());
      values.push_back(assignment.second.substr(start, comma - start));
      start = comma + 1;
    }
    // Dimensions may also be separated by commas ("1,3,224,224"): a list of shapes is one whose
    // every item is written with 'x'.
    const bool listed = std::all_of(values.begin(), values.end(), [](const std::string& value) {
      return value.find('x') != std::string::npos;
    });
    if (!listed) values = {assignment.second};
    if (values.size() > 1) {
      if (points > 1 && values.size() != points) {
        return ORT_ERROR(kInvalidArgument,
                         "--shape {}: {} shapes, but another --shape sweeps over {}", entry,
                         values.size(), points);
      }
      points = values.size();
    }
    shapes.emplace_back(assignment.first, std::move(values));
  }
  std::vector<FeedArgs> sweep(points, args);
  for (size_t point = 0; point < points; ++point) {
    sweep[point].shapes.clear();
    for (const auto& [name, values] : shapes) {
      sweep[point].shapes.push_back(name + "=" + values[values.size() == 1 ? 0 : point]);
    }
  }
  return sweep;
}

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

  std::map<std::string, ValueRange> ranges;
  for (const auto& entry : args.ranges) {
    ORT_ASSIGN_OR_RETURN(auto assignment, SplitAssignment(entry, "--input-range"));
    const ValueType* type = DeclaredType(infos, assignment.first);
    if (type == nullptr) {
      return ORT_ERROR(kInvalidArgument,
                       "--input-range {}: the model has no input '{}' (inputs: {})", entry,
                       assignment.first, InputNames(infos));
    }
    ORT_ASSIGN_OR_RETURN(ranges[assignment.first],
                         ParseRange(entry, assignment.second, type->elem_type));
  }
  for (const auto& [name, bound] : IndexInputBounds(session.model().graph())) {
    const ValueType* type = DeclaredType(infos, name);
    if (type != nullptr && IsIntegerType(type->elem_type) && !ranges.count(name)) {
      ranges[name] = ValueRange{0.0, static_cast<double>(bound - 1)};
    }
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
    const DataType type = info.type.elem_type;
    const auto given_range = ranges.find(info.name);
    const ValueRange range = given_range != ranges.end() ? given_range->second
                             : IsIntegerType(type)       ? ValueRange{0.0, 9.0}
                                                         : ValueRange{};
    ORT_ASSIGN_OR_RETURN(Tensor tensor, RandomTensor(type, std::move(shape), range, rng));
    feeds.push_back(Feed{{info.name, Value(std::move(tensor))}, DescribeRange(type, range)});
  }
  return feeds;
}

}  // namespace ort::cli
