#include "apps/ort/perf_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "apps/ort/common_options.h"
#include "apps/ort/feeds.h"
#include "apps/ort/perf_gate.h"
#include "apps/ort/perf_html.h"
#include "apps/ort/perf_report.h"
#include "lib/common/cpu_info.h"
#include "lib/common/file_writer.h"
#include "lib/profiler/profile_summary.h"

namespace ort::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct PerfArgs {
  SessionArgs session;
  FeedArgs feeds;
  int repeat = 10;
  double duration_s = 0;
  bool use_duration = false;  // -t given; then --repeat is ignored (they exclude each other)
  int warmup = 1;
  int concurrency = 1;
  std::string json_path;
  std::string baseline_path;
  std::string max_regression = "10";  // ParseRegressionLimits
  std::string markdown_path;
  int rounds = 1;
  std::string percentiles;  // "50,90,99,99.9"
  std::string html_path;
  bool shrink_arena = false;
};

double Milliseconds(Clock::duration elapsed) {
  return std::chrono::duration<double, std::milli>(elapsed).count();
}

/// A one-line progress bar on stderr, redrawn in place.
class ProgressBar {
 public:
  /// `total` is runs in repeat mode or seconds in duration mode.
  ProgressBar(bool by_time, double total) : by_time_(by_time), total_(total) {}

  void Draw(int64_t runs, double elapsed_s) {
    const double done = by_time_ ? elapsed_s : static_cast<double>(runs);
    const double fraction = std::clamp(done / total_, 0.0, 1.0);
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(filled, '#');
    bar.resize(kWidth, ' ');
    std::cerr << fmt::format("\r[{}] {:3.0f}%  {} runs, {:.1f} s", bar, fraction * 100, runs,
                             elapsed_s)
              << std::flush;
  }

  /// Erases the bar so the report that follows starts on a clean line.
  void Clear() { std::cerr << "\r\033[K" << std::flush; }

 private:
  bool by_time_;
  double total_;
};

struct Measurement {
  std::vector<double> latencies_ms;
  double wall_s = 0;
  double first_ms = 0;  // the first run to finish, for --warmup 0
};

// Runs the measured phase: `args.concurrency` threads call Run on the one session, each doing
// its share of --repeat or running until --duration has passed.
Result<Measurement> Measure(const InferenceSession& session, std::span<const NamedValue> feeds,
                            const PerfArgs& args) {
  const int threads = args.concurrency;
  std::vector<std::vector<double>> latencies(threads);
  std::vector<Clock::time_point> finished_at(threads);
  std::atomic<int64_t> completed{0};
  std::atomic<int64_t> first_ns{-1};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // guards error, done_threads
  std::condition_variable all_done;
  Status error;
  int done_threads = 0;

  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(args.duration_s));
  const std::vector<int> cpus = args.session.pin_threads ? AllowedCpus() : std::vector<int>{};
  auto worker = [&](int index) {
    // Callers take the CPUs from the first on; the session's workers start at the second.
    if (!cpus.empty()) PinCurrentThread(cpus[static_cast<size_t>(index) % cpus.size()]);
    const int64_t share = args.repeat / threads + (index < args.repeat % threads ? 1 : 0);
    std::vector<Value> outputs;
    // In duration mode every thread runs at least once, so a tiny -t still yields statistics.
    for (int64_t i = 0; args.use_duration ? (i == 0 || Clock::now() < deadline) : i < share; ++i) {
      if (stop.load(std::memory_order_relaxed)) break;
      outputs.clear();
      const auto begin = Clock::now();
      RunOptions run_options;
      run_options.shrink_arenas = args.shrink_arena;
      Status status = session.Run(run_options, feeds, {}, &outputs);
      const auto end = Clock::now();
      if (!status.ok()) {
        std::lock_guard lock(mutex);
        if (error.ok()) error = std::move(status);
        stop = true;
        break;
      }
      latencies[index].push_back(Milliseconds(end - begin));
      int64_t none = -1;
      first_ns.compare_exchange_strong(
          none, std::chrono::duration_cast<std::chrono::nanoseconds>(end - begin).count());
      completed.fetch_add(1, std::memory_order_relaxed);
    }
    finished_at[index] = Clock::now();
    std::lock_guard lock(mutex);
    if (++done_threads == threads) all_done.notify_one();
  };
  std::vector<std::thread> pool;
  try {
    for (int i = 0; i < threads; ++i) pool.emplace_back(worker, i);
  } catch (const std::system_error& failure) {
    stop = true;
    for (auto& thread : pool) thread.join();
    return ORT_ERROR(kRuntimeError, "could start only {} of --concurrency {} threads: {}",
                     pool.size(), threads, failure.what());
  }

  // The bar is worth drawing only on a terminal and for a phase longer than a second; the
  // length of a repeat-mode phase is known only once the first run has been timed.
  const bool tty = isatty(STDERR_FILENO) != 0;
  std::unique_ptr<ProgressBar> bar;
  bool decided = !tty;
  {
    std::unique_lock lock(mutex);
    while (!all_done.wait_for(lock, std::chrono::milliseconds(100),
                              [&] { return done_threads == threads; })) {
      const double elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
      if (!decided && first_ns.load() >= 0) {
        decided = true;
        const double expected_s =
            args.use_duration ? args.duration_s
                              : static_cast<double>(first_ns.load()) * 1e-9 * args.repeat / threads;
        if (expected_s > 1.0) {
          bar = std::make_unique<ProgressBar>(args.use_duration,
                                              args.use_duration ? args.duration_s : args.repeat);
        }
      }
      if (bar) bar->Draw(completed.load(), elapsed_s);
    }
  }
  for (auto& thread : pool) thread.join();
  if (bar) bar->Clear();
  ORT_RETURN_IF_ERROR(error);

  Measurement result;
  result.wall_s = std::chrono::duration<double>(
                      *std::max_element(finished_at.begin(), finished_at.end()) - start)
                      .count();
  result.first_ms = static_cast<double>(first_ns.load()) * 1e-6;
  for (auto& samples : latencies) {
    result.latencies_ms.insert(result.latencies_ms.end(), samples.begin(), samples.end());
  }
  return result;
}

PerfSettings CollectSettings(const InferenceSession& session, const std::vector<Feed>& feeds) {
  // A request of 0 threads means one per core, as InferenceSession resolves it.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  PerfSettings s;
  const SessionOptions& options = session.options();
  s.intra_op_threads = options.intra_op_threads > 0 ? options.intra_op_threads : cores;
  s.inter_op_threads = options.inter_op_threads > 0 ? options.inter_op_threads : cores;
  s.execution_mode = options.execution_mode == ExecutionMode::kParallel ? "parallel" : "sequential";
  s.opt_level = OptimizationLevelName(options.optimization_level);
  for (const auto& provider : session.providers()) s.providers.push_back(provider->type());
  s.allow_spinning = options.allow_spinning;
  s.pinned = options.pin_threads;
  for (const auto& feed : feeds) {
    const Value& value = feed.value.second;
    s.input_shapes.emplace_back(feed.value.first, value.IsTensor() ? value.tensor().shape().dims()
                                                                   : std::vector<int64_t>{});
  }
  s.engine_version = ORT_VERSION;
  s.cpu = CpuModelName();
  s.isa = CpuFeatureNames(GetCpuFeatures());
  return s;
}

std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : std::string(separator)) + part;
  return text;
}

void PrintHeader(const InferenceSession& session, const PerfArgs& args, const PerfReport& report,
                 const std::vector<Feed>& feeds) {
  const PerfSettings& s = report.settings;
  std::cout << "model: " << args.session.model << " (" << session.ExecutionOrder().size()
            << " nodes after optimization)\n";
  std::cout << fmt::format(
      "settings: providers {}, intra-op threads {}, inter-op threads {}, {}, opt level {}, "
      "spinning {}, pinned {}, concurrency {}, warmup {}, {}\n",
      Join(s.providers, ","), s.intra_op_threads, s.inter_op_threads, s.execution_mode, s.opt_level,
      s.allow_spinning ? "on" : "off", s.pinned ? "yes" : "no", report.concurrency,
      report.warmup_runs,
      args.use_duration ? fmt::format("duration {} s", args.duration_s)
                        : fmt::format("repeat {}", args.repeat));
  std::cout << "cpu: " << s.cpu << " [" << Join(s.isa, " ") << "]\n";
  for (const auto& feed : feeds) {
    std::cout << fmt::format("input: {:<24} {:<24} {}\n", feed.value.first,
                             feed.value.second.Describe(), feed.source);
  }
}

void PrintResults(const PerfReport& report) {
  const LatencyStats& l = report.latency_ms;
  std::cout << fmt::format(
      "latency (ms): min {:.3f}  mean {:.3f}  p50 {:.3f}  p90 {:.3f}  p95 {:.3f}  p99 {:.3f}  "
      "max {:.3f}\n",
      l.min, l.mean, l.p50, l.p90, l.p95, l.p99, l.max);
  std::cout << fmt::format(
      "throughput: {:.2f} inferences/s ({} runs in {:.3f} s, concurrency {})\n",
      report.throughput_per_s, report.runs, report.measured_s, report.concurrency);
  std::cout << "runs: " << report.runs << "\n";
  constexpr double kMiB = 1024.0 * 1024.0;
  std::cout << fmt::format("peak resident memory: {} bytes ({:.1f} MiB)\n", report.peak_rss_bytes,
                           static_cast<double>(report.peak_rss_bytes) / kMiB);
  const int64_t growth = report.RssGrowthBytes();
  std::cout << fmt::format(
      "resident memory: {} bytes before session creation, {} bytes after the runs, growth {} "
      "bytes ({:.1f} MiB)\n",
      report.rss_before_session_bytes, report.rss_after_runs_bytes, growth,
      static_cast<double>(growth) / kMiB);
}

// "50,90,99.9": percents in (0, 100].
Result<std::vector<double>> ParsePercentiles(const std::string& text) {
  std::vector<double> percents;
  size_t start = 0;
  while (!text.empty() && start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    start = comma + 1;
    char* end = nullptr;
    const double percent = std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || !(percent > 0 && percent <= 100)) {
      return ORT_ERROR(kInvalidArgument, "--percentiles {}: '{}' is not a percent in (0, 100]",
                       text, item);
    }
    percents.push_back(percent);
  }
  return percents;
}

Status CheckArgs(const PerfArgs& args) {
  ORT_RETURN_IF_NOT(args.use_duration || args.repeat >= 1, "--repeat must be at least 1, got {}",
                    args.repeat);
  ORT_RETURN_IF_NOT(!args.use_duration || args.duration_s > 0,
                    "--duration must be positive, got {}", args.duration_s);
  ORT_RETURN_IF_NOT(args.warmup >= 0, "--warmup must not be negative, got {}", args.warmup);
  ORT_RETURN_IF_NOT(args.concurrency >= 1, "--concurrency must be at least 1, got {}",
                    args.concurrency);
  ORT_RETURN_IF_ERROR(CheckThreadCount(args.concurrency, "--concurrency", args.session.force));
  ORT_RETURN_IF_NOT(args.rounds >= 1, "--rounds must be at least 1, got {}", args.rounds);
  return ParsePercentiles(args.percentiles).status();
}

// The rest of a --shape sweep (the first shape was the main measurement): warm-up and rounds
// per shape, then the table of every point.
Status MeasureSweep(const InferenceSession& session, const PerfArgs& args,
                    const std::vector<FeedArgs>& sweep, PerfReport& report) {
  report.sweep.push_back(
      {report.settings.input_shapes, report.latency_ms, report.throughput_per_s, report.runs});
  for (size_t point = 1; point < sweep.size(); ++point) {
    ORT_ASSIGN_OR_RETURN(const std::vector<Feed> feeds, BuildFeeds(session, sweep[point]));
    std::vector<NamedValue> named;
    for (const auto& feed : feeds) named.push_back(feed.value);
    std::vector<Value> outputs;
    for (int i = 0; i < args.warmup; ++i) {
      outputs.clear();
      ORT_RETURN_IF_ERROR(session.Run(RunOptions{}, named, {}, &outputs));
    }
    std::vector<double> latencies;
    double wall_s = 0;
    for (int round = 0; round < args.rounds; ++round) {
      ORT_ASSIGN_OR_RETURN(Measurement measured, Measure(session, named, args));
      wall_s += measured.wall_s;
      latencies.insert(latencies.end(), measured.latencies_ms.begin(), measured.latencies_ms.end());
    }
    SweepPoint entry;
    entry.input_shapes = CollectSettings(session, feeds).input_shapes;
    entry.runs = static_cast<int64_t>(latencies.size());
    entry.throughput_per_s = wall_s > 0 ? static_cast<double>(entry.runs) / wall_s : 0;
    entry.latency_ms = ComputeLatencyStats(std::move(latencies));
    report.sweep.push_back(std::move(entry));
  }
  std::cout << "shape sweep:\n";
  std::cout << fmt::format("  {:<40} {:>10} {:>10} {:>10} {:>14}\n", "input shapes", "p50 ms",
                           "p90 ms", "mean ms", "inferences/s");
  for (const SweepPoint& point : report.sweep) {
    std::cout << fmt::format("  {:<40} {:>10.3f} {:>10.3f} {:>10.3f} {:>14.2f}\n",
                             FormatInputShapes(point.input_shapes), point.latency_ms.p50,
                             point.latency_ms.p90, point.latency_ms.mean, point.throughput_per_s);
  }
  return Status::OK();
}

// The baseline's identity against this run's: exit 2 on a difference unless --force.
Status CheckComparable(const PerfBaseline& baseline, const PerfReport& report, bool force) {
  const auto mine = ReportIdentity(report);
  std::string differences;
  for (const auto& [key, value] : mine) {
    const auto theirs = baseline.identity.find(key);
    const std::string other = theirs == baseline.identity.end() ? "" : theirs->second;
    if (other == value) continue;
    differences += fmt::format("{}{} '{}' there, '{}' here", differences.empty() ? "" : "; ", key,
                               other, value);
  }
  if (differences.empty()) return Status::OK();
  if (!force) {
    return ORT_ERROR(kInvalidArgument,
                     "--baseline '{}' was measured otherwise ({}); --force compares anyway",
                     baseline.path, differences);
  }
  std::cout << "baseline differs (compared anyway, --force): " << differences << "\n";
  return Status::OK();
}

Result<int> Execute(const PerfArgs& args) {
  ORT_RETURN_IF_ERROR(CheckArgs(args));
  // Read the baseline first: a bad file should fail before minutes of benchmarking.
  ORT_ASSIGN_OR_RETURN(const std::vector<FeedArgs> sweep, ShapeSweep(args.feeds));
  ORT_RETURN_IF_NOT(sweep.size() == 1 || args.baseline_path.empty(),
                    "--baseline gates one shape; a --shape sweep lists {}", sweep.size());
  PerfBaseline baseline;
  std::map<std::string, double> limits;
  if (!args.baseline_path.empty()) {
    ORT_ASSIGN_OR_RETURN(baseline, ReadBaseline(args.baseline_path));
    ORT_ASSIGN_OR_RETURN(limits, ParseRegressionLimits(args.max_regression));
  }

  PerfReport report;
  report.model = args.session.model;
  report.timestamp = UtcTimestamp();
  report.concurrency = args.concurrency;
  report.warmup_runs = args.warmup;
  report.rounds = args.rounds;
  const auto runtime_start = Clock::now();
  InitializeRuntime();
  report.runtime_init_ms = Milliseconds(Clock::now() - runtime_start);
  report.rss_before_session_bytes = ResidentBytes();
  const auto create_start = Clock::now();
  ORT_ASSIGN_OR_RETURN(std::unique_ptr<InferenceSession> session, CreateSession(args.session));
  report.session_init_ms = Milliseconds(Clock::now() - create_start);
  ORT_ASSIGN_OR_RETURN(report.model_hash, FileHash(args.session.model));
  report.optimizer_rollbacks = static_cast<int64_t>(session->optimizer_rollbacks().size());
  ORT_ASSIGN_OR_RETURN(std::vector<Feed> feeds, BuildFeeds(*session, sweep.front()));
  std::vector<NamedValue> named;
  for (const auto& feed : feeds) named.push_back(feed.value);
  report.settings = CollectSettings(*session, feeds);
  if (!args.baseline_path.empty()) {
    ORT_RETURN_IF_ERROR(CheckComparable(baseline, report, args.session.force));
  }
  PrintHeader(*session, args, report, feeds);
  std::cout << fmt::format("runtime set-up: {:.3f} ms (once per process, before the session)\n",
                           report.runtime_init_ms);
  std::cout << fmt::format("session creation: {:.3f} ms\n", report.session_init_ms);
  std::cout << fmt::format("optimizer rollbacks: {}\n", report.optimizer_rollbacks);

  std::vector<Value> outputs;
  for (int i = 0; i < args.warmup; ++i) {
    outputs.clear();
    const auto start = Clock::now();
    ORT_RETURN_IF_ERROR(session->Run(RunOptions{}, named, {}, &outputs));
    if (i == 0) report.first_run_ms = Milliseconds(Clock::now() - start);
  }
  outputs.clear();
  if (args.warmup > 0) std::cout << fmt::format("first run: {:.3f} ms\n", report.first_run_ms);
  // Flushed so these lines come before the progress bar on a terminal.
  std::cout << std::flush;

  // Rounds are separate measured phases: a slow spell of the machine then lands in one of them,
  // and the gate's test can compare the rounds' medians.
  const double cpu_start = ProcessCpuSeconds();
  for (int round = 0; round < args.rounds; ++round) {
    ORT_ASSIGN_OR_RETURN(Measurement measured, Measure(*session, named, args));
    if (round == 0 && args.warmup == 0) {
      report.first_run_ms = measured.first_ms;
      std::cout << fmt::format("first run: {:.3f} ms (measured; --warmup 0)\n",
                               report.first_run_ms);
    }
    report.measured_s += measured.wall_s;
    report.round_p50_ms.push_back(ComputeLatencyStats(measured.latencies_ms).p50);
    report.latencies_ms.insert(report.latencies_ms.end(), measured.latencies_ms.begin(),
                               measured.latencies_ms.end());
  }
  report.cpu_cores_busy =
      report.measured_s > 0 ? (ProcessCpuSeconds() - cpu_start) / report.measured_s : 0;
  report.rss_after_runs_bytes = ResidentBytes();
  report.runs = static_cast<int64_t>(report.latencies_ms.size());
  ORT_ASSIGN_OR_RETURN(const std::vector<double> percents, ParsePercentiles(args.percentiles));
  for (const double percent : percents) {
    report.percentiles_ms.emplace_back(percent, LatencyPercentile(report.latencies_ms, percent));
  }
  report.throughput_per_s =
      report.measured_s > 0 ? static_cast<double>(report.runs) / report.measured_s : 0;
  report.latency_ms = ComputeLatencyStats(report.latencies_ms);
  report.peak_rss_bytes = PeakResidentBytes();
  report.arena_bytes_in_use = static_cast<int64_t>(session->ArenaBytesInUse());
  PrintResults(report);
  if (!report.percentiles_ms.empty()) {
    std::string text;
    for (const auto& [percent, value] : report.percentiles_ms) {
      text += fmt::format("  p{} {:.3f}", percent, value);
    }
    std::cout << "percentiles (ms):" << text << "\n";
  }
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::cout << fmt::format(
      "cpu utilization: {:.2f} cores busy in the measured phase ({:.0f}% of {})\n",
      report.cpu_cores_busy, 100.0 * report.cpu_cores_busy / cores, cores);
  if (args.rounds > 1) {
    std::cout << fmt::format("round p50s (ms): {:.3f}\n", fmt::join(report.round_p50_ms, " "));
  }
  if (sweep.size() > 1) ORT_RETURN_IF_ERROR(MeasureSweep(*session, args, sweep, report));
  if (!args.json_path.empty()) {
    ORT_RETURN_IF_ERROR(WriteReportJson(report, args.json_path));
    std::cout << "report: " << args.json_path << "\n";
  }
  std::optional<ProfileSummary> profile;
  std::vector<ProfileEvent> events;
  if (!args.session.profile_file.empty()) {
    ORT_ASSIGN_OR_RETURN(std::string trace, session->EndProfiling());
    events = session->ProfilingEvents();
    profile = SummarizeProfile(events);
    std::cout << FormatProfileSummary(*profile);
    std::cout << "profile trace written to " << trace << "\n";
  }
  if (!args.html_path.empty()) {
    ORT_RETURN_IF_ERROR(
        WriteStringToFile(args.html_path, PerfHtml(report, profile ? &*profile : nullptr, events))
            .WithContext("--html"));
    std::cout << "html: " << args.html_path << "\n";
  }

  if (args.baseline_path.empty()) return 0;
  const std::vector<GateRow> rows =
      EvaluateGate(baseline, report, report.latencies_ms, report.round_p50_ms, limits);
  bool regressed = false;
  std::cout << "baseline: " << args.baseline_path << "\n";
  for (const GateRow& row : rows) {
    std::cout << fmt::format("  {:<10} {:>12.4g} -> {:<12.4g} {:+7.1f}% (limit +{}%) {}: {}\n",
                             row.metric, row.baseline, row.current, row.change_pct, row.limit_pct,
                             row.regressed ? "REGRESSION" : "ok", row.test);
    regressed = regressed || row.regressed;
  }
  if (!args.markdown_path.empty()) {
    ORT_RETURN_IF_ERROR(WriteStringToFile(args.markdown_path, GateMarkdown(baseline, report, rows))
                            .WithContext("--markdown"));
    std::cout << "markdown: " << args.markdown_path << "\n";
  }
  return regressed ? 1 : 0;
}

}  // namespace

std::function<int()> AddPerfCommand(CLI::App& app) {
  auto args = std::make_shared<PerfArgs>();
  CLI::App* command = app.add_subcommand(
      "perf", "Benchmark a model: latency percentiles, throughput, memory; JSON reports");
  AddSessionOptions(*command, args->session);
  AddFeedOptions(*command, args->feeds);
  CLI::Option* repeat =
      command->add_option("-r,--repeat", args->repeat, "measured runs (default 10)");
  CLI::Option* duration = command->add_option("-t,--duration", args->duration_s,
                                              "measure for this many seconds instead of -r");
  repeat->excludes(duration);
  command->add_option("--warmup", args->warmup, "unmeasured runs before measuring (default 1)");
  command->add_option("-c,--concurrency", args->concurrency,
                      "threads calling Run on the one session at once (default 1)");
  command->add_option("--json", args->json_path, "write a JSON report here");
  command->add_flag("--shrink-arena", args->shrink_arena,
                    "return the arena's free regions to the system after every measured run");
  command->add_option("-p,--profile", args->session.profile_file,
                      "profile the session and every run: write a Chrome trace (Perfetto, "
                      "chrome://tracing) here and print the hottest operators and nodes");
  CLI::Option* baseline = command->add_option(
      "--baseline", args->baseline_path,
      "gate against this JSON report (same model and settings, else exit 2 unless --force); "
      "exit 1 on a regression");
  command
      ->add_option("--max-regression", args->max_regression,
                   "allowed regression in percent: METRIC=PCT,... over p50, p90, throughput, "
                   "session, rss, or one number for p50 (default 10)")
      ->needs(baseline);
  command
      ->add_option("--markdown", args->markdown_path,
                   "with --baseline: write the gate's table as Markdown here")
      ->needs(baseline);
  command->add_option("--html", args->html_path,
                      "write a self-contained page: latency histogram and runs, settings, and "
                      "with -p the time per operator type and node and the threads' timelines");
  command->add_option("--percentiles", args->percentiles,
                      "also report these latency percentiles: 50,90,99,99.9 (nearest rank)");
  command->add_flag("--pin", args->session.pin_threads,
                    "pin the threads calling Run to the first CPUs this process may use and the "
                    "intra-op workers to the next ones (wrapping)");
  command->add_option("--rounds", args->rounds,
                      "measure in this many rounds of -r runs (or -t seconds) each; the gate "
                      "tests the rounds' medians (default 1)");
  return [duration, args]() -> int {
    args->use_duration = duration->count() > 0;
    auto result = Execute(*args);
    if (!result.ok()) {
      std::cerr << "ort perf: " << result.status().message() << "\n";
      return 2;
    }
    return *result;
  };
}

}  // namespace ort::cli
