#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "lib/ir/model.h"
#include "lib/profiler/profile_summary.h"
#include "lib/session/inference_session.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort {
namespace {

using test::MakeCpuSession;

using nlohmann::json;

// y = Sigmoid(Relu(x @ w + b)), with an Identity the optimizer removes. The MatMul is large
// enough to be worth splitting over the pool.
std::unique_ptr<Model> MlpModel() {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  model->path = "mlp_model";
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.SetValueType("x",
                     ValueType::Tensor(DataType::kFloat,
                                       SymbolicShape{Dimension::Known(64), Dimension::Known(128)}));
  graph.AddInitializer("w",
                       Tensor::FromVector<float>({128, 128}, std::vector<float>(128 * 128, 0.01f)));
  graph.AddInitializer("b", Tensor::FromVector<float>({128}, std::vector<float>(128, 0.5f)));
  graph.AddNode({"copy", "Identity", "", {"x"}, {"x2"}, {}});
  graph.AddNode({"matmul", "MatMul", "", {"x2", "w"}, {"h"}, {}});
  graph.AddNode({"bias", "Add", "", {"h", "b"}, {"h2"}, {}});
  graph.AddNode({"relu", "Relu", "", {"h2"}, {"h3"}, {}});
  graph.AddNode({"sigmoid", "Sigmoid", "", {"h3"}, {"y"}, {}});
  graph.ResolveOuterScope();
  return model;
}

void RunOnce(const InferenceSession& session) {
  std::vector<NamedValue> feeds{
      {"x", Value(Tensor::FromVector<float>({64, 128}, std::vector<float>(64 * 128, 1.0f)))}};
  std::vector<Value> outputs;
  REQUIRE(session.Run({}, feeds, {}, &outputs).ok());
  REQUIRE(outputs.size() == 1);
}

std::filesystem::path TempPath(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("ort_profiler_test_" + std::to_string(::getpid()) + "_" + name);
}

json ReadJson(const std::filesystem::path& path) {
  std::ifstream file(path);
  REQUIRE(file.good());
  return json::parse(file);
}

}  // namespace

TEST_CASE("a profiled session writes a Chrome trace with every node of every run", "[profiler]") {
  SessionOptions options;
  options.enable_profiling = true;
  options.intra_op_threads = 4;
  options.profile_file_path = TempPath("trace.json").string();
  auto session = MakeCpuSession(MlpModel(), options);
  RunOnce(*session);
  RunOnce(*session);
  auto written = session->EndProfiling();
  REQUIRE(written.ok());
  CHECK(*written == options.profile_file_path);
  // Profiling has ended: later runs are not recorded and a second end is an error.
  const size_t recorded = session->ProfilingEvents().size();
  RunOnce(*session);
  CHECK(session->ProfilingEvents().size() == recorded);
  CHECK_FALSE(session->EndProfiling().ok());

  const json trace = ReadJson(*written);
  std::filesystem::remove(*written);
  REQUIRE(trace.is_array());

  std::set<std::string> session_events;
  std::set<std::string> thread_names;
  std::vector<std::pair<double, double>> runs;
  std::vector<json> node_events;
  for (const json& event : trace) {
    REQUIRE(event.contains("ph"));
    if (event["ph"] == "M") {
      if (event["name"] == "thread_name") thread_names.insert(event["args"]["name"]);
      continue;
    }
    REQUIRE(event["ph"] == "X");
    REQUIRE(event["ts"].is_number());
    REQUIRE(event["dur"].is_number());
    REQUIRE(event["pid"].is_number());
    REQUIRE(event["tid"].is_number());
    if (event["cat"] == "Session") {
      session_events.insert(event["name"]);
      if (event["name"] == "model_run") runs.emplace_back(event["ts"], event["dur"]);
    } else {
      REQUIRE(event["cat"] == "Node");
      node_events.push_back(event);
    }
  }
  for (const char* name : {"session_initialization", "function_expansion", "graph_optimization",
                           "optimizer_level_basic", "optimizer_pass_basic_rewrites",
                           "graph_partitioning", "kernel_creation_and_prepacking",
                           "allocation_planning", "thread_pool_creation", "model_run"}) {
    CHECK(session_events.count(name) == 1);
  }
  CHECK(thread_names.count("main") == 1);
  for (int i = 0; i < 3; ++i) CHECK(thread_names.count("intra-op-" + std::to_string(i)) == 1);
  REQUIRE(runs.size() == 2);

  const auto& order = session->ExecutionOrder();
  REQUIRE(order.size() == 4);  // the Identity is gone
  for (const auto& [run_start, run_duration] : runs) {
    std::map<std::string, int> seen;
    for (const json& event : node_events) {
      const double ts = event["ts"];
      if (ts >= run_start && ts <= run_start + run_duration) ++seen[event["name"]];
    }
    CHECK(seen.size() == order.size());
    for (const Node* node : order) CHECK(seen[node->name() + "_kernel_time"] == 1);
  }

  bool any_split = false;
  for (const json& event : node_events) {
    INFO(event.dump());
    const json& args = event["args"];
    CHECK(args["op_name"].is_string());
    CHECK(args["provider"] == "cpu");
    REQUIRE(args["input_type_shape"].is_array());
    REQUIRE(args["output_type_shape"].size() == 1);
    CHECK(args["output_type_shape"][0]["float"] == json::array({64, 128}));
    CHECK(args["output_size"] == 64 * 128 * 4);
    CHECK(args["activation_size"].is_number());
    const json& stats = args["thread_scheduling_stats"];
    CHECK(stats["pool_name"] == "intra-op");
    CHECK(stats["pool_size"] == 4);
    CHECK(stats["spinning"] == true);
    REQUIRE(stats["threads"].is_array());
    int64_t chunks = 0;
    for (const json& thread : stats["threads"]) {
      CHECK(thread["tid"].is_number());
      CHECK(thread_names.count(thread["name"]) == 1);
      chunks += thread["chunks"].get<int64_t>();
    }
    CHECK(stats["chunks"] == chunks);
    if (args["op_name"] == "MatMul") {
      CHECK(args["input_type_shape"] == json::parse(R"([{"float":[64,128]},{"float":[128,128]}])"));
      CHECK(args["activation_size"] == 64 * 128 * 4);
      CHECK(args["parameter_size"] == 128 * 128 * 4);
    }
    if (args["op_name"] == "Add") CHECK(args["parameter_size"] == 128 * 4);
    // Which threads take the chunks depends on scheduling; that work was split does not.
    if (stats["parallel_calls"] > 0 && chunks > 1) any_split = true;
  }
  CHECK(any_split);

  const std::vector<ProfileEvent> events = session->ProfilingEvents();
  const ProfileSummary summary = SummarizeProfile(events);
  CHECK(summary.runs == 2);
  CHECK(summary.op_types.size() == 4);
  CHECK(summary.nodes.size() == 4);
  const std::string text = FormatProfileSummary(summary);
  for (const char* op : {"MatMul", "Add", "Relu", "Sigmoid", "bias", "relu"}) {
    CHECK(text.find(op) != std::string::npos);
  }
}

TEST_CASE("concurrent profiled runs each record all their nodes", "[profiler]") {
  SessionOptions options;
  options.enable_profiling = true;
  options.intra_op_threads = 2;
  options.profile_file_path = TempPath("concurrent.json").string();
  auto session = MakeCpuSession(MlpModel(), options);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&session] {
      for (int repeat = 0; repeat < 5; ++repeat) RunOnce(*session);
    });
  }
  for (auto& thread : threads) thread.join();
  const ProfileSummary summary = SummarizeProfile(session->ProfilingEvents());
  CHECK(summary.runs == 15);
  REQUIRE(summary.nodes.size() == 4);
  for (const NodeTime& node : summary.nodes) CHECK(node.count == 15);

  auto written = session->EndProfiling();
  REQUIRE(written.ok());
  const json trace = ReadJson(*written);
  std::filesystem::remove(*written);
  // The running threads are not the one that created the session: each gets a name of its own.
  std::set<std::string> names;
  std::map<int64_t, std::string> names_by_tid;
  for (const json& event : trace) {
    if (event["ph"] == "M" && event["name"] == "thread_name") {
      names.insert(event["args"]["name"]);
      names_by_tid[event["tid"]] = event["args"]["name"];
    }
  }
  for (const char* name : {"main", "caller-1", "caller-2", "caller-3", "intra-op-0"}) {
    CHECK(names.count(name) == 1);
  }
  // A thread's first node event names it in its thread stats before the event is recorded.
  for (const json& event : trace) {
    if (event.value("cat", "") != "Node") continue;
    for (const json& thread : event["args"]["thread_scheduling_stats"]["threads"]) {
      CHECK(names_by_tid[thread["tid"]] == thread["name"]);
    }
  }
}

TEST_CASE("without profiling nothing is recorded", "[profiler]") {
  SessionOptions options;
  options.intra_op_threads = 2;
  auto session = MakeCpuSession(MlpModel(), options);
  RunOnce(*session);
  CHECK(session->ProfilingEvents().empty());
  CHECK_FALSE(session->EndProfiling().ok());
}

TEST_CASE("the trace file name is built from the prefix", "[profiler]") {
  SessionOptions options;
  options.enable_profiling = true;
  options.profile_file_prefix = TempPath("prefixed").string();
  auto session = MakeCpuSession(MlpModel(), options);
  RunOnce(*session);
  auto written = session->EndProfiling();
  REQUIRE(written.ok());
  CHECK(written->rfind(options.profile_file_prefix + "_", 0) == 0);
  CHECK(written->ends_with(".json"));
  CHECK(ReadJson(*written).is_array());
  std::filesystem::remove(*written);
}

TEST_CASE("an unwritable trace path is an error naming it", "[profiler]") {
  SessionOptions options;
  options.enable_profiling = true;
  options.profile_file_path = "/nonexistent-dir/trace.json";
  auto session = MakeCpuSession(MlpModel(), options);
  auto written = session->EndProfiling();
  REQUIRE_FALSE(written.ok());
  CHECK(written.status().message().find("/nonexistent-dir/trace.json") != std::string::npos);
}

TEST_CASE("the pool counts chunks per thread only while stats are installed", "[profiler]") {
  ThreadPool pool("test-pool", 4, true);
  std::atomic<int64_t> covered{0};
  auto body = [&covered](int64_t begin, int64_t end) { covered += end - begin; };
  ParallelStats stats(pool.DegreeOfParallelism());
  {
    ScopedParallelStats scope(&stats);
    pool.ParallelFor(1 << 16, 1000.0, body);  // split into chunks
    pool.ParallelFor(4, 1.0, body);           // too cheap: inline
  }
  pool.ParallelFor(1 << 16, 1000.0, body);  // not counted
  CHECK(covered.load() == 2 * (1 << 16) + 4);
  CHECK(stats.parallel_calls() == 1);
  CHECK(stats.inline_calls() == 1);
  CHECK(stats.total_chunks() > 4);
  CHECK(stats.chunks(0) >= 1);  // the caller works too
  CHECK(pool.WorkerThreadIds().size() == 3);
}

TEST_CASE("the trace escapes names and survives invalid UTF-8", "[profiler]") {
  Profiler profiler;
  const auto now = Profiler::Clock::now();
  profiler.Record(ProfileCategory::kNode, "a\"b\\c\n\x01", now, now, {{"graph", "tab\there"}});
  profiler.Record(ProfileCategory::kNode, "bad\xff", now, now);
  const json trace = json::parse(profiler.TraceJson());
  std::vector<std::string> names;
  for (const json& event : trace) {
    if (event["ph"] == "X") names.push_back(event["name"]);
  }
  REQUIRE(names.size() == 2);
  CHECK(names[0] == "a\"b\\c\n\x01");
  CHECK(names[1] == "bad\xEF\xBF\xBD");  // U+FFFD
  CHECK(trace.back()["args"].empty());
}

TEST_CASE("the profile summary splits time per provider and reports copies apart", "[profiler]") {
  const auto node = [](std::string name, std::string op, std::string provider, double us) {
    ProfileEvent event;
    event.category = ProfileCategory::kNode;
    event.name = name + "_kernel_time";
    event.node_name = std::move(name);
    event.op_type = std::move(op);
    event.dur_us = us;
    event.args = {{"op_name", event.op_type}, {"provider", provider}};
    return event;
  };
  ProfileEvent run;
  run.name = "model_run";
  run.dur_us = 10000;
  const std::vector<ProfileEvent> events = {
      run,
      node("x_up", "MemcpyFromHost", "cuda", 1000),
      node("conv", "Conv", "cuda", 4000),
      node("shape", "Shape", "cpu", 500),
      node("y_down", "MemcpyToHost", "cuda", 2000),
  };
  const ProfileSummary summary = SummarizeProfile(events);
  REQUIRE(summary.providers.size() == 2);
  CHECK(summary.providers[0].provider == "cuda");
  CHECK(summary.providers[0].count == 3);
  CHECK(summary.providers[0].total_ms == Approx(7.0));
  CHECK(summary.providers[0].percent == Approx(70.0));
  CHECK(summary.providers[1].provider == "cpu");
  CHECK(summary.to_device.count == 1);
  CHECK(summary.to_device.total_ms == Approx(1.0));
  CHECK(summary.to_host.total_ms == Approx(2.0));
  CHECK(summary.to_host.percent == Approx(20.0));
  const std::string text = FormatProfileSummary(summary);
  CHECK(text.find("host to device") != std::string::npos);
  CHECK(text.find("device to host") != std::string::npos);
}

}  // namespace ort
