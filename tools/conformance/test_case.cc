#include "tools/conformance/test_case.h"

#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <type_traits>

#include "lib/io/tensor_file.h"
#include "lib/session/inference_session.h"
#include "providers/provider_factory.h"

namespace ort::conformance {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> SortedEntries(const fs::path& directory, std::string_view prefix) {
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(directory)) {
    if (entry.path().filename().string().rfind(prefix, 0) == 0) entries.push_back(entry.path());
  }
  // input_10.pb sorts after input_9.pb: order by the number after the prefix.
  auto number = [&](const fs::path& path) {
    const std::string stem = path.stem().string().substr(prefix.size());
    return stem.empty() ? 0L : std::strtol(stem.c_str(), nullptr, 10);
  };
  std::sort(entries.begin(), entries.end(),
            [&](const fs::path& a, const fs::path& b) { return number(a) < number(b); });
  return entries;
}

CaseResult Failure(Outcome outcome, std::string detail) {
  std::replace(detail.begin(), detail.end(), '\n', ' ');
  return {outcome, std::move(detail)};
}

// onnx 1.12's test generator stored bfloat16 tensors as uint16 holding the raw bits (fixed in later
// onnx releases); such a file is read as the bfloat16 tensor it stands for.
Value AsDeclaredBfloat16(Value value, const ValueType* declared) {
  if (declared == nullptr || !declared->IsTensor() || declared->elem_type != DataType::kBFloat16 ||
      !value.IsTensor() || value.tensor().dtype() != DataType::kUint16) {
    return value;
  }
  auto bits = std::make_shared<Tensor>(std::move(value.mutable_tensor()));
  auto reinterpreted = Tensor::Borrow(DataType::kBFloat16, bits->shape(), bits->MutableRawData(),
                                      bits->SizeInBytes(), bits);
  return reinterpreted.ok() ? Value(std::move(*reinterpreted)) : Value(std::move(*bits));
}

// Outputs drawn by a random op (Bernoulli, RandomUniformLike, ...) come from numpy's generator in
// the test data, which no engine reproduces. They are checked as draws: same type and shape, and
// every value one the distribution can produce, i.e. 0 or 1 for a Bernoulli draw, else within the
// expected values' range.
bool DrawsRandomValues(const InferenceSession& session) {
  static const std::set<std::string> kRandomOps = {"Bernoulli",         "RandomUniform",
                                                   "RandomUniformLike", "RandomNormal",
                                                   "RandomNormalLike",  "Multinomial"};
  const auto& order = session.ExecutionOrder();
  return std::any_of(order.begin(), order.end(),
                     [](const Node* node) { return kRandomOps.count(node->op_type()) > 0; });
}

std::vector<double> ElementsAsDouble(const Tensor& tensor) {
  std::vector<double> values(static_cast<size_t>(tensor.NumElements()));
  if (tensor.dtype() == DataType::kBool) {
    for (size_t i = 0; i < values.size(); ++i) values[i] = tensor.Data<bool>()[i] ? 1 : 0;
    return values;
  }
  DispatchByType<NumericTypes>(tensor.dtype(), "compare draws", [&]<typename T>() {
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
        values[i] = static_cast<double>(static_cast<float>(tensor.Data<T>()[i]));
      } else {
        values[i] = static_cast<double>(tensor.Data<T>()[i]);
      }
    }
    return Status::OK();
  }).IgnoreError();
  return values;
}

Comparison CompareDraws(const Value& actual, const Value& expected) {
  if (!actual.IsTensor() || !expected.IsTensor()) {
    return {false, 0, 0, 1,
            fmt::format("got {}, expected {}", actual.Describe(), expected.Describe())};
  }
  const Tensor& a = actual.tensor();
  const Tensor& e = expected.tensor();
  if (a.dtype() != e.dtype() || a.shape() != e.shape()) {
    return {false, 0, 0, 1,
            fmt::format("draw of {} {} differs from expected {} {}", DataTypeName(a.dtype()),
                        a.shape().ToString(), DataTypeName(e.dtype()), e.shape().ToString())};
  }
  const std::vector<double> drawn = ElementsAsDouble(a);
  const std::vector<double> reference = ElementsAsDouble(e);
  if (reference.empty()) return {};
  const bool binary =
      std::all_of(reference.begin(), reference.end(), [](double v) { return v == 0 || v == 1; });
  const auto [low, high] = std::minmax_element(reference.begin(), reference.end());
  Comparison result;
  for (size_t i = 0; i < drawn.size(); ++i) {
    const double v = drawn[i];
    const bool possible = binary ? (v == 0 || v == 1) : (v >= *low && v <= *high);
    if (!possible) {
      if (result.match) {
        result.detail =
            fmt::format("element {}: drew {}, which the distribution cannot produce", i, v);
      }
      result.match = false;
      ++result.mismatches;
    }
  }
  return result;
}

CaseResult RunDataSet(const InferenceSession& session, const fs::path& data_set,
                      const Tolerance& tolerance) {
  const std::vector<ValueInfo> inputs = session.InputInfos();
  const std::vector<ValueInfo> outputs = session.OutputInfos();
  std::vector<NamedValue> feeds;
  const auto input_files = SortedEntries(data_set, "input_");
  for (size_t i = 0; i < input_files.size(); ++i) {
    const ValueType* type = i < inputs.size() ? &inputs[i].type : nullptr;
    auto file = ReadValueFile(input_files[i].string(), type);
    if (!file.ok()) return Failure(Outcome::kFail, file.status().message());
    std::string name = file->name;
    const bool known = std::any_of(inputs.begin(), inputs.end(),
                                   [&](const ValueInfo& info) { return info.name == name; });
    if (!known) {
      if (i >= inputs.size()) return Failure(Outcome::kFail, "more input files than inputs");
      name = inputs[i].name;
    }
    feeds.emplace_back(name, AsDeclaredBfloat16(std::move(file->value), type));
  }
  std::vector<Value> results;
  Status status = session.Run(RunOptions{}, feeds, {}, &results);
  if (!status.ok()) {
    const bool unsupported = status.code() == StatusCode::kNotImplemented;
    return Failure(unsupported ? Outcome::kUnsupported : Outcome::kFail, status.message());
  }
  const auto output_files = SortedEntries(data_set, "output_");
  const bool draws = DrawsRandomValues(session);
  if (output_files.size() != results.size()) {
    return Failure(Outcome::kFail, "model produced " + std::to_string(results.size()) +
                                       " outputs, expected " + std::to_string(output_files.size()));
  }
  for (size_t i = 0; i < output_files.size(); ++i) {
    auto expected = ReadValueFile(output_files[i].string(), &outputs[i].type);
    if (!expected.ok()) return Failure(Outcome::kFail, expected.status().message());
    Value reference = AsDeclaredBfloat16(std::move(expected->value), &outputs[i].type);
    const Comparison comparison = draws ? CompareDraws(results[i], reference)
                                        : CompareValues(results[i], reference, tolerance);
    if (!comparison.match) {
      return Failure(Outcome::kFail, data_set.filename().string() + " output '" + outputs[i].name +
                                         "': " + comparison.detail);
    }
  }
  return {};
}

}  // namespace

CaseResult RunTestCase(const std::string& directory, const Tolerance& tolerance,
                       OptimizationLevel level) {
  SessionOptions options;
  options.optimization_level = level;
  options.intra_op_threads = 1;
  options.log_severity = LogSeverity::kFatal;
  InferenceSession session(options);
  auto providers = CreateProviders({"cpu"});
  if (!providers.ok()) return Failure(Outcome::kFail, providers.status().message());
  for (auto& provider : *providers) session.RegisterProvider(std::move(provider)).IgnoreError();
  Status status = session.Load((fs::path(directory) / "model.onnx").string());
  if (status.ok()) status = session.Initialize();
  if (!status.ok()) {
    const bool unsupported = status.code() == StatusCode::kNotImplemented;
    return Failure(unsupported ? Outcome::kUnsupported : Outcome::kFail, status.message());
  }
  const auto data_sets = SortedEntries(directory, "test_data_set_");
  if (data_sets.empty()) return Failure(Outcome::kFail, "no test_data_set_* folder");
  for (const auto& data_set : data_sets) {
    CaseResult result = RunDataSet(session, data_set, tolerance);
    if (result.outcome != Outcome::kPass) return result;
  }
  return {};
}

CaseResult RunTestCaseIsolated(const std::string& directory, const Tolerance& tolerance,
                               OptimizationLevel level) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return RunTestCase(directory, tolerance, level);
  const pid_t child = fork();
  if (child < 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return RunTestCase(directory, tolerance, level);
  }
  if (child == 0) {
    close(pipe_fds[0]);
    const CaseResult result = RunTestCase(directory, tolerance, level);
    const std::string message = std::to_string(static_cast<int>(result.outcome)) + result.detail;
    size_t written = 0;
    while (written < message.size()) {
      const ssize_t n = write(pipe_fds[1], message.data() + written, message.size() - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    close(pipe_fds[1]);
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string message;
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof(buffer))) > 0;) message.append(buffer, n);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || message.empty()) {
    const std::string how = WIFSIGNALED(status)
                                ? "signal " + std::to_string(WTERMSIG(status))
                                : "exit code " + std::to_string(WEXITSTATUS(status));
    return Failure(Outcome::kFail, "crashed (" + how + ")");
  }
  return {static_cast<Outcome>(message[0] - '0'), message.substr(1)};
}

}  // namespace ort::conformance
