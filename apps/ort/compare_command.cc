#include "apps/ort/compare_command.h"

#include <fmt/format.h>

#include <iostream>
#include <map>
#include <memory>

#include "apps/ort/common_options.h"
#include "apps/ort/feeds.h"
#include "apps/ort/intermediates.h"
#include "lib/io/compare.h"
#include "lib/optimizer/optimization_level.h"

namespace ort::cli {
namespace {

struct CompareArgs {
  SessionArgs session;
  FeedArgs feeds;
  std::string a = "level=disable";
  std::string b;
  double rtol = 1e-3;
  double atol = 1e-5;
  bool bisect = false;
  std::string bisect_dir;  // with --bisect: both sides' intermediates as .npy (a/, b/)
};

// One side: the session settings and how they differ from the command line's.
struct Side {
  SessionArgs session;
  std::string description;
};

// "key=value,key=value": provider (cpu, cuda, cuda+cpu), level, precision, threads, model.
Result<Side> ParseSpec(const SessionArgs& base, const std::string& spec, const char* which) {
  Side side{base, ""};
  std::string rest = spec;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string item = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    if (item.empty()) continue;
    const size_t equals = item.find('=');
    if (equals == std::string::npos) {
      return ORT_ERROR(kInvalidArgument,
                       "--{} {}: expected KEY=VALUE items (provider, level, precision, threads, "
                       "model) separated by commas",
                       which, spec);
    }
    const std::string key = item.substr(0, equals);
    std::string value = item.substr(equals + 1);
    if (key == "provider" || key == "providers") {
      for (char& c : value) c = c == '+' ? ',' : c;
      side.session.providers = value;
    } else if (key == "level") {
      if (auto level = ParseOptimizationLevel(value); !level.ok()) {
        return level.status().WithContext(fmt::format("--{} {}", which, spec));
      }
      side.session.opt_level = value;
    } else if (key == "precision") {
      side.session.precision = value;
    } else if (key == "threads") {
      ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> threads, ParseDims(value));
      if (threads.size() != 1) {
        return ORT_ERROR(kInvalidArgument, "--{} {}: threads must be one number", which, spec);
      }
      side.session.intra_op_threads = static_cast<int>(threads[0]);
    } else if (key == "model") {
      side.session.model = value;
    } else {
      return ORT_ERROR(kInvalidArgument,
                       "--{} {}: unknown key '{}' (provider, level, precision, threads, model)",
                       which, spec, key);
    }
  }
  side.description = fmt::format(
      "{} (providers {}, level {}, precision {}, {} threads)", side.session.model,
      side.session.providers, side.session.opt_level, side.session.precision,
      side.session.intra_op_threads == 0 ? std::string("default")
                                         : std::to_string(side.session.intra_op_threads));
  return side;
}

struct Produced {
  std::string node;
  std::string op_type;
};

// A session for `side`; with `marked`, every node output is made a graph output (the names in
// execution order land in `marked`, their producers in `producers`).
Result<std::unique_ptr<InferenceSession>> Open(const Side& side, std::vector<std::string>* marked,
                                               std::map<std::string, Produced>* producers) {
  ModelEdit edit;
  if (marked != nullptr) {
    edit = [marked, producers](Model& model) -> Status {
      for (const Node* node : model.graph().Nodes()) {
        for (const std::string& output : node->outputs()) {
          (*producers)[output] = {node->name(), node->op_type()};
        }
      }
      ORT_ASSIGN_OR_RETURN(*marked, MarkIntermediates(model, ""));
      return Status::OK();
    };
  }
  return CreateSession(side.session, edit);
}

Result<std::vector<Value>> RunOnce(InferenceSession& session, const std::vector<Feed>& feeds) {
  std::vector<NamedValue> named;
  for (const Feed& feed : feeds) named.push_back(feed.value);
  std::vector<Value> outputs;
  ORT_RETURN_IF_ERROR(session.Run(RunOptions{}, named, {}, &outputs));
  return outputs;
}

Result<int> Execute(const CompareArgs& args) {
  ORT_RETURN_IF_NOT(args.rtol >= 0 && args.atol >= 0,
                    "--rtol and --atol must not be negative, got {} and {}", args.rtol, args.atol);
  ORT_ASSIGN_OR_RETURN(const Side a, ParseSpec(args.session, args.a, "a"));
  ORT_ASSIGN_OR_RETURN(const Side b, ParseSpec(args.session, args.b, "b"));
  const Tolerance tolerance{args.rtol, args.atol};

  std::vector<std::string> marked_a, marked_b;
  std::map<std::string, Produced> producers, unused;
  ORT_ASSIGN_OR_RETURN(auto session_a, Open(a, args.bisect ? &marked_a : nullptr, &producers));
  ORT_ASSIGN_OR_RETURN(auto session_b, Open(b, args.bisect ? &marked_b : nullptr, &unused));
  ORT_ASSIGN_OR_RETURN(const std::vector<Feed> feeds, BuildFeeds(*session_a, args.feeds));
  ORT_ASSIGN_OR_RETURN(std::vector<Value> values_a, RunOnce(*session_a, feeds));
  ORT_ASSIGN_OR_RETURN(std::vector<Value> values_b, RunOnce(*session_b, feeds));

  std::cout << "a: " << a.description << "\nb: " << b.description << "\ninputs:\n";
  for (const Feed& feed : feeds) {
    std::cout << fmt::format("  {:<24} {:<24} {}\n", feed.value.first, feed.value.second.Describe(),
                             feed.source);
  }
  const std::vector<ValueInfo> infos_a = session_a->OutputInfos();
  const std::vector<ValueInfo> infos_b = session_b->OutputInfos();
  const size_t outputs_a = values_a.size() - marked_a.size();
  std::map<std::string, const Value*> by_name_b;
  for (size_t i = 0; i < values_b.size(); ++i) by_name_b[infos_b[i].name] = &values_b[i];

  std::cout << fmt::format("outputs (rtol {}, atol {}):\n", args.rtol, args.atol);
  std::cout << fmt::format("  {:<24} {:>12} {:>12} {:>10} {:>14}\n", "", "max abs", "max rel",
                           "cosine", "mismatches");
  bool all_match = true;
  for (size_t i = 0; i < outputs_a; ++i) {
    const auto found = by_name_b.find(infos_a[i].name);
    if (found == by_name_b.end()) {
      return ORT_ERROR(kInvalidArgument, "output '{}' of a is not an output of b ({})",
                       infos_a[i].name, b.session.model);
    }
    const Comparison result = CompareValues(*found->second, values_a[i], tolerance);
    const int64_t elements =
        values_a[i].IsTensor() ? values_a[i].tensor().NumElements() : result.mismatches;
    std::cout << fmt::format(
        "  {:<24} {:>12.4g} {:>12.4g} {:>10.6f} {:>14} {}\n", infos_a[i].name, result.max_abs_diff,
        result.max_rel_diff, result.cosine, fmt::format("{}/{}", result.mismatches, elements),
        result.match
            ? "OK"
            : "MISMATCH" + (result.detail.empty() ? std::string() : " (" + result.detail + ")"));
    all_match = all_match && result.match;
  }

  if (args.bisect) {
    int64_t compared = 0, diverged = 0;
    std::string first;
    for (size_t i = 0; i < marked_a.size(); ++i) {
      const auto found = by_name_b.find(marked_a[i]);
      if (found == by_name_b.end()) continue;
      const Value& value_a = values_a[outputs_a + i];
      ++compared;
      const Comparison result = CompareValues(*found->second, value_a, tolerance);
      if (result.match) continue;
      ++diverged;
      if (!first.empty()) continue;
      const Produced& producer = producers[marked_a[i]];
      first = fmt::format(
          "first divergence: node '{}' ({}), output '{}': max abs {:.4g}, max rel {:.4g}, cosine "
          "{:.6f}, {} mismatches ({})",
          producer.node, producer.op_type, marked_a[i], result.max_abs_diff, result.max_rel_diff,
          result.cosine, result.mismatches, result.detail);
    }
    std::cout << fmt::format("bisect: {} node outputs in both, {} diverge\n", compared, diverged);
    if (!args.bisect_dir.empty()) {
      const std::vector<Value> marked_values_a(
          values_a.begin() + static_cast<std::ptrdiff_t>(outputs_a), values_a.end());
      const std::vector<Value> marked_values_b(
          values_b.end() - static_cast<std::ptrdiff_t>(marked_b.size()), values_b.end());
      ORT_ASSIGN_OR_RETURN(const size_t written_a,
                           WriteIntermediates(args.bisect_dir + "/a", marked_a, marked_values_a));
      ORT_ASSIGN_OR_RETURN(const size_t written_b,
                           WriteIntermediates(args.bisect_dir + "/b", marked_b, marked_values_b));
      std::cout << fmt::format("  intermediates written to {}/a ({}) and {}/b ({})\n",
                               args.bisect_dir, written_a, args.bisect_dir, written_b);
    }
    std::cout << (first.empty() ? "  no node output diverges" : "  " + first) << "\n";
  }
  std::cout << (all_match ? "outputs match\n" : "outputs differ\n");
  return all_match ? 0 : 1;
}

}  // namespace

std::function<int()> AddCompareCommand(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* command = app.add_subcommand(
      "compare", "Run a model two ways on the same inputs and compare the outputs");
  AddSessionOptions(*command, args->session);
  AddFeedOptions(*command, args->feeds);
  command->add_option("--a", args->a,
                      "first way: KEY=VALUE,... with provider (cpu, cuda, cuda+cpu), level, "
                      "precision, threads, model (another file); default level=disable");
  command->add_option("--b", args->b,
                      "second way, as --a; default the command line's settings (level all)");
  command->add_option("--rtol", args->rtol, "relative tolerance");
  command->add_option("--atol", args->atol, "absolute tolerance");
  CLI::Option* bisect =
      command->add_flag("--bisect", args->bisect,
                        "compare every node output the two share and name the first that diverges");
  command
      ->add_option("--bisect-dir", args->bisect_dir,
                   "with --bisect: also write both sides' node outputs as DIR/a/<value>.npy "
                   "and DIR/b/<value>.npy")
      ->needs(bisect);
  return [args]() -> int {
    auto result = Execute(*args);
    if (!result.ok()) {
      std::cerr << "ort compare: " << result.status().message() << "\n";
      return 2;
    }
    return *result;
  };
}

}  // namespace ort::cli
