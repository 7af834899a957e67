#include "tools/conformance/test_case.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
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

// The CLI's way through the same data set: `ort run --input-dir --output-dir` in a child
// process, outputs read back from the files it wrote as their declared types.
CaseResult RunThroughCli(const CaseOptions& options, const fs::path& model,
                         const fs::path& data_set, const std::vector<ValueInfo>& outputs,
                         std::vector<Value>* results) {
  std::string scratch = (fs::temp_directory_path() / "ort-conformance-XXXXXX").string();
  if (mkdtemp(scratch.data()) == nullptr) return Failure(Outcome::kFail, "mkdtemp failed");
  const fs::path log = fs::path(scratch) / "log.txt";
  const std::vector<std::string> args = {options.cli,
                                         "run",
                                         model.string(),
                                         "--input-dir",
                                         data_set.string(),
                                         "--output-dir",
                                         scratch,
                                         "-o",
                                         options.level_name,
                                         "-x",
                                         "1",
                                         "--log-level",
                                         "fatal"};
  const pid_t child = fork();
  if (child == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
    }
    std::vector<char*> argv;
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(options.cli.c_str(), argv.data());
    _exit(127);
  }
  int wait_status = 0;
  if (child < 0 || waitpid(child, &wait_status, 0) < 0) {
    fs::remove_all(scratch);
    return Failure(Outcome::kFail, "cannot start " + options.cli);
  }
  CaseResult result;
  if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0) {
    std::string last_line;
    std::ifstream stream(log);
    for (std::string line; std::getline(stream, line);) {
      if (!line.empty()) last_line = line;
    }
    result = Failure(Outcome::kFail,
                     (WIFSIGNALED(wait_status)
                          ? "ort run crashed (signal " + std::to_string(WTERMSIG(wait_status)) + ")"
                          : "ort run exit " + std::to_string(WEXITSTATUS(wait_status))) +
                         ": " + last_line);
  }
  for (size_t i = 0; result.outcome == Outcome::kPass && i < outputs.size(); ++i) {
    const fs::path file = fs::path(scratch) / ("output_" + std::to_string(i) + ".pb");
    auto value = ReadValueFile(file.string(), &outputs[i].type);
    if (!value.ok()) {
      result = Failure(Outcome::kFail, value.status().message());
    } else {
      results->push_back(std::move(value->value));
    }
  }
  fs::remove_all(scratch);
  return result;
}

CaseResult RunDataSet(const InferenceSession& session, const fs::path& model,
                      const fs::path& data_set, const CaseOptions& options) {
  const std::vector<ValueInfo> inputs = session.InputInfos();
  const std::vector<ValueInfo> outputs = session.OutputInfos();
  std::vector<Value> results;
  if (!options.cli.empty()) {
    CaseResult cli = RunThroughCli(options, model, data_set, outputs, &results);
    if (cli.outcome != Outcome::kPass) return cli;
  } else {
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
      feeds.emplace_back(name, std::move(file->value));
    }
    Status status = session.Run(RunOptions{}, feeds, {}, &results);
    if (!status.ok()) {
      const bool unsupported = status.code() == StatusCode::kNotImplemented;
      return Failure(unsupported ? Outcome::kUnsupported : Outcome::kFail, status.message());
    }
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
    const Value& reference = expected->value;
    const Comparison comparison = draws ? CompareDraws(results[i], reference)
                                        : CompareValues(results[i], reference, options.tolerance);
    if (!comparison.match) {
      return Failure(Outcome::kFail, data_set.filename().string() + " output '" + outputs[i].name +
                                         "': " + comparison.detail);
    }
  }
  return {};
}

}  // namespace

CaseResult RunTestCase(const std::string& directory, const CaseOptions& options) {
  SessionOptions session_options;
  session_options.optimization_level = options.level;
  session_options.intra_op_threads = 1;
  session_options.log_severity = LogSeverity::kFatal;
  InferenceSession session(session_options);
  auto providers = CreateProviders({"cpu"});
  if (!providers.ok()) return Failure(Outcome::kFail, providers.status().message());
  for (auto& provider : *providers) session.RegisterProvider(std::move(provider)).IgnoreError();
  const fs::path model = fs::path(directory) / "model.onnx";
  Status status = session.Load(model.string());
  if (status.ok()) status = session.Initialize();
  if (!status.ok()) {
    const bool unsupported = status.code() == StatusCode::kNotImplemented;
    return Failure(unsupported ? Outcome::kUnsupported : Outcome::kFail, status.message());
  }
  const auto data_sets = SortedEntries(directory, "test_data_set_");
  if (data_sets.empty()) return Failure(Outcome::kFail, "no test_data_set_* folder");
  for (const auto& data_set : data_sets) {
    CaseResult result = RunDataSet(session, model, data_set, options);
    if (result.outcome != Outcome::kPass) return result;
  }
  return {};
}

CaseResult RunTestCaseIsolated(const std::string& directory, const CaseOptions& options) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return RunTestCase(directory, options);
  const pid_t child = fork();
  if (child < 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return RunTestCase(directory, options);
  }
  if (child == 0) {
    close(pipe_fds[0]);
    const CaseResult result = RunTestCase(directory, options);
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
