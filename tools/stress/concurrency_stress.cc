// ort-stress: many threads call Run on one session at once, with inputs of different shapes,
// and every output must equal the one a lone caller got for the same inputs. Meant to run under
// ThreadSanitizer too (scripts/tsan_stress.sh), where a data race is reported even when the
// outputs happen to come out right.
//   ort-stress MODEL... [--threads 8] [--seconds 60] [--sets 6]
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "lib/io/compare.h"
#include "lib/session/inference_session.h"
#include "providers/provider_factory.h"

namespace {

using namespace ort;
using Clock = std::chrono::steady_clock;

struct InputSet {
  std::vector<NamedValue> feeds;
  std::vector<Value> expected;
  std::string label;
};

// Symbolic dimensions get one size per set (a batch-like name 1-3, others 3-12), so the sets
// differ in shape and the planner, arena and kernels see shapes change between concurrent runs.
Result<TensorShape> SetShape(const ValueInfo& info, std::map<std::string, int64_t>& symbols,
                             std::mt19937_64& rng) {
  if (!info.type.shape) return ORT_ERROR(kInvalidArgument, "input '{}' has no rank", info.name);
  std::vector<int64_t> dims;
  for (const auto& dim : *info.type.shape) {
    if (dim.IsKnown()) {
      dims.push_back(dim.value);
      continue;
    }
    auto [it, added] = symbols.try_emplace(dim.param, 0);
    if (added || dim.param.empty()) {
      const bool batch = dim.param.find("batch") != std::string::npos || dim.param == "N";
      it->second = batch ? std::uniform_int_distribution<int64_t>(1, 3)(rng)
                         : std::uniform_int_distribution<int64_t>(3, 12)(rng);
    }
    dims.push_back(it->second);
  }
  return TensorShape(std::move(dims));
}

Result<Tensor> RandomTensor(DataType type, TensorShape shape, std::mt19937_64& rng) {
  ORT_ASSIGN_OR_RETURN(Tensor tensor, Tensor::Allocate(type, std::move(shape)));
  const int64_t count = tensor.shape().NumElements();
  std::normal_distribution<float> normal;
  // Integer inputs are usually indices (token ids, positions) or masks: small values stay valid.
  std::uniform_int_distribution<int> small(0, 1);
  switch (type) {
    case DataType::kFloat:
      for (int64_t i = 0; i < count; ++i) tensor.MutableData<float>()[i] = normal(rng);
      return tensor;
    case DataType::kInt64:
      for (int64_t i = 0; i < count; ++i) tensor.MutableData<int64_t>()[i] = small(rng);
      return tensor;
    case DataType::kInt32:
      for (int64_t i = 0; i < count; ++i) tensor.MutableData<int32_t>()[i] = small(rng);
      return tensor;
    case DataType::kBool:
      for (int64_t i = 0; i < count; ++i) tensor.MutableData<bool>()[i] = small(rng) != 0;
      return tensor;
    default:
      return ORT_ERROR(kNotImplemented, "random {} inputs are not supported", DataTypeName(type));
  }
}

Result<std::vector<InputSet>> MakeSets(const InferenceSession& session, int count) {
  std::vector<InputSet> sets;
  for (int s = 0; s < count; ++s) {
    std::mt19937_64 rng(1000 + s);
    std::map<std::string, int64_t> symbols;
    InputSet set;
    for (const auto& info : session.InputInfos()) {
      if (!info.type.IsTensor()) {
        return ORT_ERROR(kInvalidArgument, "input '{}' is not a tensor", info.name);
      }
      ORT_ASSIGN_OR_RETURN(TensorShape shape, SetShape(info, symbols, rng));
      set.label += info.name + shape.ToString() + " ";
      ORT_ASSIGN_OR_RETURN(Tensor tensor, RandomTensor(info.type.elem_type, shape, rng));
      set.feeds.emplace_back(info.name, Value(std::move(tensor)));
    }
    // The reference: this set run alone, before any other caller exists.
    ORT_RETURN_IF_ERROR(session.Run(RunOptions{}, set.feeds, {}, &set.expected));
    sets.push_back(std::move(set));
  }
  return sets;
}

struct Totals {
  std::atomic<int64_t> runs{0};
  std::atomic<int64_t> mismatches{0};
  std::atomic<int64_t> errors{0};
  std::mutex mutex;
  std::string first_problem;
  void Report(std::string problem) {
    std::lock_guard lock(mutex);
    if (first_problem.empty()) first_problem = std::move(problem);
  }
};

void Hammer(const InferenceSession& session, const std::vector<InputSet>& sets, int index,
            Clock::time_point deadline, Totals& totals) {
  std::mt19937_64 rng(index);
  std::vector<Value> outputs;
  while (Clock::now() < deadline) {
    const InputSet& set = sets[rng() % sets.size()];
    outputs.clear();
    Status status = session.Run(RunOptions{}, set.feeds, {}, &outputs);
    totals.runs.fetch_add(1);
    if (!status.ok()) {
      totals.errors.fetch_add(1);
      totals.Report("run failed: " + status.message());
      continue;
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Comparison result = CompareValues(outputs[i], set.expected[i], {0, 0});
      if (!result.match) {
        totals.mismatches.fetch_add(1);
        totals.Report(fmt::format("output {} for inputs {}: {}", i, set.label, result.detail));
        break;
      }
    }
  }
}

Result<bool> Stress(const std::string& path, ExecutionMode mode, int threads, double seconds,
                    int set_count) {
  SessionOptions options;
  options.execution_mode = mode;
  options.intra_op_threads = 2;
  options.inter_op_threads = 2;
  options.log_severity = LogSeverity::kError;
  InferenceSession session(options);
  ORT_ASSIGN_OR_RETURN(auto providers, CreateProviders({"cpu"}));
  for (auto& provider : providers)
    ORT_RETURN_IF_ERROR(session.RegisterProvider(std::move(provider)));
  ORT_RETURN_IF_ERROR(session.Load(path));
  ORT_RETURN_IF_ERROR(session.Initialize());
  ORT_ASSIGN_OR_RETURN(std::vector<InputSet> sets, MakeSets(session, set_count));

  Totals totals;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(seconds));
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] { Hammer(session, sets, i, deadline, totals); });
  }
  for (auto& thread : pool) thread.join();
  const bool clean = totals.mismatches == 0 && totals.errors == 0 && totals.runs > 0;
  std::cout << fmt::format(
      "{} {} {}: {} runs by {} threads over {} input sets, {} mismatches, {} "
      "errors{}\n",
      clean ? "ok  " : "FAIL", path,
      mode == ExecutionMode::kParallel ? "(parallel)" : "(sequential)", totals.runs.load(), threads,
      sets.size(), totals.mismatches.load(), totals.errors.load(),
      totals.first_problem.empty() ? "" : "; first: " + totals.first_problem);
  return clean;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Concurrent Run calls on one session, checked against lone runs", "ort-stress"};
  std::vector<std::string> models;
  int threads = 8;
  double seconds = 60;
  int sets = 6;
  app.add_option("models", models, "ONNX models")->required();
  app.add_option("--threads", threads, "threads calling Run at once");
  app.add_option("--seconds", seconds, "how long each model and mode is hammered");
  app.add_option("--sets", sets, "input sets (shapes and values) per model");
  CLI11_PARSE(app, argc, argv);
  if (threads < 1 || sets < 1 || seconds <= 0) {
    std::cerr << "ort-stress: --threads, --sets and --seconds must be positive\n";
    return 2;
  }
  bool all_clean = true;
  for (const auto& model : models) {
    for (ExecutionMode mode : {ExecutionMode::kSequential, ExecutionMode::kParallel}) {
      auto clean = Stress(model, mode, threads, seconds / 2, sets);
      if (!clean.ok()) {
        std::cerr << "ort-stress: " << model << ": " << clean.status().message() << "\n";
        return 2;
      }
      all_clean = all_clean && *clean;
    }
  }
  return all_clean ? 0 : 1;
}
