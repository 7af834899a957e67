// ort-conformance: runs the ONNX backend test cases shipped by Debian's libonnx-testdata through
// the engine and reports pass / fail / unsupported. With --expected-failures it fails on any
// change against the checked-in list: a new failure, or a listed case that now passes.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "lib/common/file_writer.h"
#include "lib/session/inference_session.h"
#include "tools/conformance/test_case.h"

namespace fs = std::filesystem;
using ort::conformance::CaseResult;
using ort::conformance::Outcome;

namespace {

std::map<std::string, std::string> ReadExpectedFailures(const std::string& path, bool* ok) {
  std::map<std::string, std::string> cases;
  std::ifstream stream(path);
  *ok = static_cast<bool>(stream);
  std::string line;
  while (std::getline(stream, line)) {
    const size_t hash = line.find('#');
    std::string name = line.substr(0, hash);
    name.erase(name.find_last_not_of(" \t\r") + 1);
    name.erase(0, name.find_first_not_of(" \t"));
    if (name.empty()) continue;
    cases[name] = hash == std::string::npos ? "" : line.substr(hash + 1);
  }
  return cases;
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Run the ONNX backend conformance cases through ort", "ort-conformance"};
  std::string data_dir = "/usr/share/libonnx-testdata/data";
  std::string suites = "node,pytorch-converted,pytorch-operator,simple";
  std::string filter;
  std::string expected_path;
  std::string write_path;
  std::string level_text = "all";
  bool no_isolate = false;
  bool verbose = false;
  ort::conformance::CaseOptions options;
  options.tolerance = {1e-3, 1e-5};
  app.add_option("--data-dir", data_dir, "root of the test data");
  app.add_option("--suites", suites, "comma-separated suite folders under the data root");
  app.add_option("--filter", filter, "only cases whose name contains this text");
  app.add_option("--expected-failures", expected_path,
                 "fail when the failing cases differ from this list");
  app.add_option("--write-failures", write_path, "write the failing cases, with reasons, here");
  app.add_option("-o,--opt-level", level_text, "graph optimization level");
  app.add_option("--rtol", options.tolerance.rtol, "relative tolerance");
  app.add_option("--atol", options.tolerance.atol, "absolute tolerance");
  app.add_option("--cli", options.cli,
                 "run each data set through this ort binary (ort run --input-dir --output-dir, "
                 "outputs read back from its files) instead of in memory");
  app.add_flag("--no-isolate", no_isolate, "run cases in this process (no crash isolation)");
  app.add_flag("-v,--verbose", verbose, "print every case");
  CLI11_PARSE(app, argc, argv);

  auto level = ort::ParseOptimizationLevel(level_text);
  if (!level.ok()) {
    std::cerr << "ort-conformance: " << level.status().message() << "\n";
    return 2;
  }
  options.level = *level;
  options.level_name = level_text;
  // Once here, not in each case's forked child: with the sanitizers, every child registering the
  // ONNX schemas again made the run 265 s instead of 110 on CI's two cores.
  ort::InitializeRuntime();
  std::map<std::string, CaseResult> results;
  for (const auto& suite : SplitCommas(suites)) {
    const fs::path root = fs::path(data_dir) / suite;
    std::error_code error;
    if (!fs::is_directory(root, error)) {
      std::cerr << "ort-conformance: no suite folder " << root << "\n";
      return 2;
    }
    std::set<fs::path> cases;
    for (const auto& entry : fs::directory_iterator(root)) {
      if (fs::exists(entry.path() / "model.onnx")) cases.insert(entry.path());
    }
    for (const auto& path : cases) {
      const std::string name = suite + "/" + path.filename().string();
      if (!filter.empty() && name.find(filter) == std::string::npos) continue;
      CaseResult result = no_isolate
                              ? ort::conformance::RunTestCase(path.string(), options)
                              : ort::conformance::RunTestCaseIsolated(path.string(), options);
      if (verbose) {
        static const char* kLabels[] = {"PASS", "FAIL", "UNSUPPORTED"};
        std::cout << kLabels[static_cast<int>(result.outcome)] << " " << name
                  << (result.detail.empty() ? "" : ": " + result.detail) << "\n";
      }
      results[name] = std::move(result);
    }
  }

  int passed = 0, failed = 0, unsupported = 0;
  for (const auto& [name, result] : results) {
    passed += result.outcome == Outcome::kPass;
    failed += result.outcome == Outcome::kFail;
    unsupported += result.outcome == Outcome::kUnsupported;
  }
  std::cout << fmt::format(
      "conformance: {} cases, {} passed ({:.1f}%), {} failed, {} unsupported\n", results.size(),
      passed, results.empty() ? 0.0 : 100.0 * passed / results.size(), failed, unsupported);

  if (!write_path.empty()) {
    std::string out =
        "# Conformance cases expected to fail, with the reason. The list may only shrink.\n";
    for (const auto& [name, result] : results) {
      if (result.outcome != Outcome::kPass) {
        std::string reason = result.detail.substr(0, 200);
        out += name + "  # " + (result.outcome == Outcome::kUnsupported ? "unsupported: " : "") +
               reason + "\n";
      }
    }
    const ort::Status written = ort::WriteStringToFile(write_path, out);
    if (!written.ok()) {
      std::cerr << "ort-conformance: " << written.message() << "\n";
      return 2;
    }
  }

  if (expected_path.empty()) {
    for (const auto& [name, result] : results) {
      if (result.outcome != Outcome::kPass && !verbose) {
        std::cout << (result.outcome == Outcome::kFail ? "FAIL " : "UNSUPPORTED ") << name << ": "
                  << result.detail << "\n";
      }
    }
    return failed + unsupported == 0 ? 0 : 1;
  }

  bool list_ok = false;
  const auto expected = ReadExpectedFailures(expected_path, &list_ok);
  if (!list_ok) {
    std::cerr << "ort-conformance: cannot read " << expected_path << "\n";
    return 2;
  }
  int regressions = 0, fixed = 0;
  for (const auto& [name, result] : results) {
    const bool listed = expected.count(name) > 0;
    if (result.outcome != Outcome::kPass && !listed) {
      std::cout << "NEW FAILURE " << name << ": " << result.detail << "\n";
      ++regressions;
    } else if (result.outcome == Outcome::kPass && listed) {
      std::cout << "NOW PASSES (remove it from " << expected_path << "): " << name << "\n";
      ++fixed;
    }
  }
  if (regressions + fixed > 0) {
    std::cout << regressions << " new failures, " << fixed << " listed cases now pass\n";
    return 1;
  }
  std::cout << "the failing cases match " << expected_path << "\n";
  return 0;
}
