#include "tools/conformance/test_case.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

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
  if (output_files.size() != results.size()) {
    return Failure(Outcome::kFail, "model produced " + std::to_string(results.size()) +
                                       " outputs, expected " + std::to_string(output_files.size()));
  }
  for (size_t i = 0; i < output_files.size(); ++i) {
    auto expected = ReadValueFile(output_files[i].string(), &outputs[i].type);
    if (!expected.ok()) return Failure(Outcome::kFail, expected.status().message());
    const Comparison comparison = CompareValues(
        results[i], AsDeclaredBfloat16(std::move(expected->value), &outputs[i].type), tolerance);
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
