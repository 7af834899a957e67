// ort-fuzz-models: mutates ONNX models (tools/fuzz/model_mutator.h) and checks each mutant in a
// forked child (tools/fuzz/model_check.h), so that it needs no clang or libFuzzer and one crash
// does not end the run. A child killed by a signal or exiting unexpectedly is a crash; one
// still running after --timeout seconds of CPU is a hang; both are written to --crash-dir, as
// are mutants whose allocations exceed --memory-mb (not failures: counted apart).
//   ort-fuzz-models --mutants 50000 --jobs 2 /usr/share/libonnx-testdata/data test/data/models
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lib/session/inference_session.h"
#include "tools/fuzz/model_check.h"
#include "tools/fuzz/model_mutator.h"

namespace {

namespace fs = std::filesystem;
using ort::fuzz::CheckStage;

// Child exit codes: kStageExit + CheckStage, or kOomExit when an allocation failed.
constexpr int kStageExit = 10;
constexpr int kOomExit = 20;

struct Seed {
  std::string path;
  std::string bytes;
};

std::vector<Seed> ReadSeeds(const std::vector<std::string>& paths, uintmax_t max_bytes) {
  std::vector<Seed> seeds;
  auto add = [&](const fs::path& path) {
    if (path.extension() != ".onnx" || fs::file_size(path) > max_bytes) return;
    std::ifstream file(path, std::ios::binary);
    std::stringstream bytes;
    bytes << file.rdbuf();
    seeds.push_back({path.string(), bytes.str()});
  };
  for (const auto& path : paths) {
    if (fs::is_directory(path)) {
      for (const auto& entry : fs::recursive_directory_iterator(path)) {
        if (entry.is_regular_file()) add(entry.path());
      }
    } else {
      add(path);
    }
  }
  std::sort(seeds.begin(), seeds.end(),
            [](const Seed& a, const Seed& b) { return a.path < b.path; });
  return seeds;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitized = true;
#else
constexpr bool kAddressSanitized = false;
#endif
#else
constexpr bool kAddressSanitized = false;
#endif

[[noreturn]] void RunChild(const std::string& bytes, int timeout_s, size_t memory_mb,
                           bool every_level, bool verbose) {
  // Hung means --timeout seconds of CPU (SIGXCPU); a wall-clock alarm at ten times that catches
  // a child blocked without spinning. Wall time alone misreads a loaded machine as hangs.
  const rlimit cpu{static_cast<rlim_t>(timeout_s), static_cast<rlim_t>(timeout_s) + 5};
  setrlimit(RLIMIT_CPU, &cpu);
  alarm(static_cast<unsigned>(timeout_s) * 10);
  // AddressSanitizer reserves terabytes of address space for its shadow memory, so a sanitized
  // child would fail at its first allocation; the check's tensor limit still bounds the mutant.
  if (!kAddressSanitized) {
    const rlim_t limit = static_cast<rlim_t>(memory_mb) << 20;
    const rlimit memory{limit, limit};
    setrlimit(RLIMIT_AS, &memory);
  }
  std::set_new_handler([] { _exit(kOomExit); });
  if (!verbose) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
  }
  ort::fuzz::QuietLogging();
  static constexpr ort::OptimizationLevel kAll[] = {ort::OptimizationLevel::kAll};
  const CheckStage stage = every_level ? ort::fuzz::CheckModelBytes(bytes, ort::fuzz::kAllLevels)
                                       : ort::fuzz::CheckModelBytes(bytes, kAll);
  _exit(kStageExit + static_cast<int>(stage));
}

struct Pending {
  uint64_t index;
  std::string source;
  std::string bytes;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Mutates ONNX models and checks that loading, optimizing and running them never "
      "crashes or hangs"};
  std::vector<std::string> paths;
  uint64_t mutants = 1000;
  uint64_t seed = 1;
  int jobs = 1;
  int timeout_s = 60;
  int max_edits = 3;
  size_t memory_mb = 4096;
  uintmax_t max_seed_bytes = 1 << 20;
  bool every_level = false;
  bool verbose = false;
  bool replay = false;
  std::string crash_dir = "fuzz-crashes";
  app.add_option("paths", paths, "model files, or directories searched for *.onnx")->required();
  app.add_option("-n,--mutants", mutants, "mutants to check");
  app.add_option("--seed", seed, "random seed (a run is reproducible from it)");
  app.add_option("-j,--jobs", jobs, "children at once")->check(CLI::Range(1, 256));
  app.add_option("--timeout", timeout_s, "seconds after which a child counts as hung");
  app.add_option("--max-edits", max_edits, "structural edits per mutant (1 to this many)");
  app.add_option("--memory-mb", memory_mb, "address-space limit of a child (MiB)");
  app.add_option("--max-seed-bytes", max_seed_bytes, "skip seed models larger than this");
  app.add_flag("--every-level", every_level,
               "check each mutant at the four optimization levels (default: level all only)");
  app.add_option("--crash-dir", crash_dir, "where crashing and hanging mutants are written");
  app.add_flag("-v,--verbose", verbose, "let children print (engine errors, sanitizer reports)");
  app.add_flag("--replay", replay,
               "check the given model files unmutated, in this process (under a debugger)");
  CLI11_PARSE(app, argc, argv);

  if (replay) {
    constexpr const char* kStages[] = {"rejected", "loaded", "initialized", "ran"};
    for (const Seed& model : ReadSeeds(paths, max_seed_bytes)) {
      const CheckStage stage = ort::fuzz::CheckModelBytes(model.bytes, ort::fuzz::kAllLevels);
      std::cout << model.path << ": " << kStages[static_cast<int>(stage)] << "\n";
    }
    return 0;
  }

  const std::vector<Seed> seeds = ReadSeeds(paths, max_seed_bytes);
  if (seeds.empty()) {
    std::cerr << "ort-fuzz-models: no .onnx files found\n";
    return 2;
  }
  // Once here, not in each mutant's forked child.
  ort::InitializeRuntime();
  std::mt19937_64 rng(seed);
  std::map<pid_t, Pending> running;
  std::map<std::string, uint64_t> counts;
  uint64_t next = 0;
  uint64_t reported = 0;
  const auto start = std::chrono::steady_clock::now();
  auto keep = [&](const Pending& pending, const std::string& kind, const std::string& detail) {
    fs::create_directories(crash_dir);
    const std::string path = fmt::format("{}/{}_{}.onnx", crash_dir, kind, pending.index);
    std::ofstream(path, std::ios::binary) << pending.bytes;
    std::cout << fmt::format("{}: mutant {} of {} ({}): {}\n", kind, pending.index, pending.source,
                             detail, path);
  };
  while (next < mutants || !running.empty()) {
    while (next < mutants && running.size() < static_cast<size_t>(jobs)) {
      const Seed& source = seeds[rng() % seeds.size()];
      ort::fuzz::ModelMutator mutator(rng());
      Pending pending{next++, source.path, {}};
      if (!mutator.MutateBytes(source.bytes, max_edits, pending.bytes)) {
        ++counts["seed unparsable"];
        continue;
      }
      std::cout.flush();
      pid_t pid = fork();
      // A machine at its process limit refuses forks for a while (EAGAIN): wait, do not give up.
      for (int retry = 0; pid < 0 && errno == EAGAIN && retry < 600; ++retry) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        pid = fork();
      }
      if (pid == 0) RunChild(pending.bytes, timeout_s, memory_mb, every_level, verbose);
      if (pid < 0) {
        std::cerr << "ort-fuzz-models: fork failed: " << std::strerror(errno) << "\n";
        return 2;
      }
      running.emplace(pid, std::move(pending));
    }
    if (next >= reported + 5000) {
      reported = next;
      std::cout << fmt::format("... {} mutants started\n", next) << std::flush;
    }
    int status = 0;
    const pid_t pid = wait(&status);
    if (pid < 0) break;
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const Pending pending = std::move(it->second);
    running.erase(it);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGALRM)) {
      ++counts["hang"];
      keep(pending, "hang",
           WTERMSIG(status) == SIGXCPU ? fmt::format("{} s of CPU", timeout_s)
                                       : fmt::format("{} s without finishing", timeout_s * 10));
    } else if (WIFSIGNALED(status)) {
      ++counts["crash"];
      keep(pending, "crash",
           fmt::format("signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status))));
    } else if (code == kOomExit) {
      ++counts["out of memory"];
      keep(pending, "oom", fmt::format("an allocation failed under --memory-mb {}", memory_mb));
    } else if (code >= kStageExit && code <= kStageExit + static_cast<int>(CheckStage::kRan)) {
      constexpr const char* kStages[] = {"rejected", "loaded", "initialized", "ran"};
      ++counts[kStages[code - kStageExit]];
    } else {
      ++counts["crash"];
      keep(pending, "crash", fmt::format("exit code {}", code));
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << fmt::format("{} mutants of {} seed models in {:.1f} s ({:.1f}/s, {} jobs)\n", next,
                           seeds.size(), seconds, static_cast<double>(next) / seconds, jobs);
  for (const auto& [kind, count] : counts) std::cout << fmt::format("  {:<16} {}\n", kind, count);
  return counts["crash"] + counts["hang"] > 0 ? 1 : 0;
}
