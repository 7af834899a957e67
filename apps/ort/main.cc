// Entry point of the `ort` tool. Invoked as `ort-run`, `ort-perf`, `ort-optimize`, `ort-quantize`,
// `ort-inspect` or `ort-compare` (links), it behaves as `ort run`, `ort perf`, ... or `ort
// compare`.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "apps/ort/compare_command.h"
#include "apps/ort/inspect_command.h"
#include "apps/ort/optimize_command.h"
#include "apps/ort/perf_command.h"
#include "apps/ort/quantize_command.h"
#include "apps/ort/run_command.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const std::string program = std::filesystem::path(argv[0]).filename().string();
  if (program.rfind("ort-", 0) == 0) args.insert(args.begin(), program.substr(4));

  CLI::App app{"ort: an ONNX inference engine", "ort"};
  app.set_version_flag("--version", std::string("ort ") + ORT_VERSION);
  app.require_subcommand(1);
  auto run = ort::cli::AddRunCommand(app);
  auto perf = ort::cli::AddPerfCommand(app);
  auto optimize = ort::cli::AddOptimizeCommand(app);
  auto quantize = ort::cli::AddQuantizeCommand(app);
  auto inspect = ort::cli::AddInspectCommand(app);
  auto compare = ort::cli::AddCompareCommand(app);

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version);
  } catch (const CLI::ParseError& error) {
    std::cerr << "ort: " << error.what() << " (see --help)\n";
    return 2;
  }
  try {
    if (app.got_subcommand("run")) return run();
    if (app.got_subcommand("perf")) return perf();
    if (app.got_subcommand("optimize")) return optimize();
    if (app.got_subcommand("quantize")) return quantize();
    if (app.got_subcommand("inspect")) return inspect();
    if (app.got_subcommand("compare")) return compare();
  } catch (const std::bad_alloc&) {
    // The library turns failed tensor allocations into errors; this catches the rest (a
    // container growing past memory) so that it still ends as one line and exit 2, not an abort.
    std::cerr << "ort: out of memory\n";
  }
  return 2;
}
