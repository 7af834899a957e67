#include "test/optimizer/optimizer_test_util.h"

#include <algorithm>
#include <random>
#include <span>

#include "lib/common/logging.h"
#include "lib/onnx/model_loader.h"
#include "providers/cpu/cpu_provider.h"

namespace ort::test {
namespace {

void Optimize(Model& model, OptimizationLevel level, std::set<std::string> disabled,
              std::span<IExecutionProvider* const> providers) {
  model.graph().ResolveOuterScope();
  OptimizerOptions options;
  options.level = level;
  options.disabled_passes = std::move(disabled);
  options.strict = true;
  const Status status = OptimizeGraph(model, options, providers);
  INFO(status.ToString());
  REQUIRE(status.ok());
}

}  // namespace

ValueType FloatTensor(std::vector<int64_t> dims) {
  SymbolicShape shape;
  for (int64_t dim : dims) shape.push_back(Dimension::Known(dim));
  return ValueType::Tensor(DataType::kFloat, shape);
}

std::string Ints(Graph& graph, const std::string& name, std::vector<int64_t> values) {
  const auto size = static_cast<int64_t>(values.size());
  graph.AddInitializer(name, Tensor::FromVector<int64_t>({size}, std::span(values)));
  return name;
}

Model MakeModel(int64_t opset) {
  Model model;
  model.opsets()[""] = opset;
  return model;
}

Tensor RandomTensor(std::vector<int64_t> dims, uint32_t seed, float low, float high) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(low, high);
  std::vector<float> values(static_cast<size_t>(TensorShape(dims).NumElements()));
  for (float& value : values) value = uniform(rng);
  return Tensor::FromVector<float>(TensorShape(std::move(dims)), std::span<const float>(values));
}

void OptimizeBasic(Model& model, std::set<std::string> disabled) {
  Optimize(model, OptimizationLevel::kBasic, std::move(disabled), {});
}

void OptimizeForCpu(Model& model, OptimizationLevel level, std::set<std::string> disabled) {
  CpuExecutionProvider cpu;
  IExecutionProvider* providers[] = {&cpu};
  Optimize(model, level, std::move(disabled), providers);
}

Ops OpTypes(const Graph& graph) {
  Ops ops;
  const std::vector<NodeIndex> order = graph.TopologicalOrder().value();
  for (NodeIndex index : order) ops.push_back(graph.GetNode(index)->op_type());
  return ops;
}

void AddIf(Graph& graph, const std::string& condition, std::unique_ptr<Graph> then_branch,
           std::unique_ptr<Graph> else_branch, const std::string& output) {
  std::vector<Attribute> branches;
  branches.push_back(Attribute::GraphValue("then_branch", std::move(then_branch)));
  branches.push_back(Attribute::GraphValue("else_branch", std::move(else_branch)));
  graph.AddNode({"if", "If", "", {condition}, {output}, std::move(branches)});
  graph.ResolveOuterScope();
}

size_t CountOps(const Graph& graph, std::string_view op_type) {
  const std::vector<const Node*> nodes = graph.Nodes();
  return static_cast<size_t>(std::count_if(
      nodes.begin(), nodes.end(), [&](const Node* node) { return node->op_type() == op_type; }));
}

std::unique_ptr<InferenceSession> MakeCpuSession(std::unique_ptr<Model> model,
                                                 SessionOptions options) {
  options.strict_optimizer = true;
  auto session = std::make_unique<InferenceSession>(options);
  REQUIRE(session->RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session->Load(std::move(model)).ok());
  const Status initialized = session->Initialize();
  INFO(initialized.ToString());
  REQUIRE(initialized.ok());
  return session;
}

CpuRun RunOnCpu(Model model, OptimizationLevel level, const std::vector<NamedValue>& feeds) {
  model.graph().ResolveOuterScope();
  // A session infers types only for models it loads from bytes; passes that need shapes (the
  // NCHWc layout) would otherwise leave a model built in code alone.
  InferModelTypes(model);
  SessionOptions options;
  options.optimization_level = level;
  const auto session = MakeCpuSession(std::make_unique<Model>(std::move(model)), options);
  CpuRun run;
  for (const Node* node : session->ExecutionOrder()) run.executed.push_back(node->op_type());
  std::vector<Value> outputs;
  const Status ran = session->Run({}, feeds, {}, &outputs);
  INFO(ran.ToString());
  REQUIRE(ran.ok());
  auto span = outputs[0].tensor().Span<float>();
  run.output.assign(span.begin(), span.end());
  return run;
}

void CheckClose(const std::vector<float>& actual, const std::vector<float>& expected, double margin,
                double epsilon) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    INFO(i);
    CHECK(actual[i] == Approx(expected[i]).margin(margin).epsilon(epsilon));
  }
}

void CheckSameOutputs(const std::function<Model()>& build, const std::vector<NamedValue>& feeds,
                      size_t fused_nodes, float tolerance, OptimizationLevel level) {
  const CpuRun plain = RunOnCpu(build(), OptimizationLevel::kDisable, feeds);
  const CpuRun fused = RunOnCpu(build(), level, feeds);
  CHECK(fused.executed.size() == fused_nodes);
  CHECK(plain.executed.size() > fused.executed.size());
  CheckClose(fused.output, plain.output, tolerance, tolerance);
}

WarningCapture::WarningCapture()
    : sink_(std::make_shared<spdlog::sinks::ostream_sink_st>(stream_)) {
  sink_->set_level(spdlog::level::warn);
  // One line per message; messages hold no newline.
  sink_->set_pattern("%l %v");
  Logger().sinks().push_back(sink_);
}

WarningCapture::~WarningCapture() {
  auto& sinks = Logger().sinks();
  sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
}

std::vector<std::string> WarningCapture::warnings() const {
  std::vector<std::string> messages;
  std::istringstream lines(stream_.str());
  const std::string prefix = "warning ";
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(prefix)) messages.push_back(line.substr(prefix.size()));
  }
  return messages;
}

std::filesystem::path TempDirectory(const std::string& name) {
  auto path = std::filesystem::temp_directory_path() / ("ort_test_" + name);
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  return path;
}

std::unique_ptr<Model> BatchedAddModel() {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  model->path = "add_model";
  Graph& graph = model->graph();
  graph.set_inputs({"a"});
  graph.set_outputs({"out"});
  graph.SetValueType(
      "a", ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{Dimension::Symbol("batch"), Dimension::Known(3)}));
  graph.AddInitializer("b", Tensor::FromVector<float>({3}, {10, 20, 30}));
  graph.AddNode({"add", "Add", "", {"a", "b"}, {"out"}, {}});
  graph.ResolveOuterScope();
  return model;
}

}  // namespace ort::test
