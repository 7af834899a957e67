// inline_control_flow and fold_sequence_at: Loops of a constant trip count unrolled (carried
// values, scan outputs, torch's tensor_split through a sequence), Ifs on a constant condition
// inlined, and the control flow they must leave alone, each checked against hand-derived
// outputs.
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

std::vector<Attribute> GraphAttribute(const char* name, std::unique_ptr<Graph> graph) {
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::GraphValue(name, std::move(graph)));
  return attributes;
}

void AddScalar(Graph& graph, const std::string& name, Tensor value) {
  graph.AddInitializer(name, std::move(value));
}

// acc [2] carried through `trips` iterations of acc += iteration * x (x of the main graph), acc
// after each also a scan output. `output` picks "final" or "history" as the graph's output; a
// `data_condition` body stops once acc's first element passes 20.
Model AccumulatingLoop(int64_t trips, const std::string& output, bool trips_input = false,
                       bool data_condition = false) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({2}));
  graph.set_inputs(trips_input ? std::vector<std::string>{"x", "M"}
                               : std::vector<std::string>{"x"});
  if (trips_input) {
    graph.SetValueType("M", ValueType::Tensor(DataType::kInt64, SymbolicShape{}));
  } else {
    AddScalar(graph, "M", Tensor::Scalar<int64_t>(trips));
  }
  graph.AddInitializer("acc", Tensor::FromVector<float>({2}, {1, 2}));
  auto body = std::make_unique<Graph>(graph.shared_opsets());
  body->SetValueType("i", ValueType::Tensor(DataType::kInt64, SymbolicShape{}));
  body->SetValueType("cond_in", ValueType::Tensor(DataType::kBool, SymbolicShape{}));
  body->SetValueType("acc_in", FloatTensor({2}));
  body->set_inputs({"i", "cond_in", "acc_in"});
  body->AddNode({"cast", "Cast", "", {"i"}, {"i_float"}, {}});
  body->GetNode(body->Producer("i_float")->index())
      ->SetAttribute(Attribute::Int("to", static_cast<int64_t>(DataType::kFloat)));
  body->AddNode({"scaled", "Mul", "", {"i_float", "x"}, {"scaled"}, {}});
  body->AddNode({"acc_out", "Add", "", {"acc_in", "scaled"}, {"acc_out"}, {}});
  std::string condition = "cond_in";
  if (data_condition) {
    body->AddInitializer("limit", Tensor::FromVector<float>({1}, {20}));
    body->AddInitializer("first", Tensor::FromVector<int64_t>({1}, {0}));
    body->AddNode({"head", "Gather", "", {"acc_out", "first"}, {"head"}, {}});
    body->AddNode({"below", "Less", "", {"head", "limit"}, {"below"}, {}});
    body->AddInitializer("axes", Tensor::FromVector<int64_t>({1}, {0}));
    body->AddNode({"cond_out", "Squeeze", "", {"below", "axes"}, {"cond_out"}, {}});
    condition = "cond_out";
  } else {
    body->AddNode({"cond_out", "Identity", "", {"cond_in"}, {"cond_out"}, {}});
    condition = "cond_out";
  }
  body->AddNode({"history_item", "Identity", "", {"acc_out"}, {"history_item"}, {}});
  body->set_outputs({condition, "acc_out", "history_item"});
  graph.AddNode({"loop",
                 "Loop",
                 "",
                 {"M", "", "acc"},
                 {"final", "history"},
                 GraphAttribute("body", std::move(body))});
  graph.set_outputs({output});
  graph.ResolveOuterScope();
  return model;
}

std::vector<NamedValue> LoopFeeds(std::optional<int64_t> trips = std::nullopt) {
  std::vector<NamedValue> feeds{{"x", Value(Tensor::FromVector<float>({2}, {10, 20}))}};
  if (trips) feeds.push_back({"M", Value(Tensor::Scalar<int64_t>(*trips))});
  return feeds;
}

// torch 1.13's tensor_split(x, (1,), dim=0) of x [4]: a one-iteration Loop appending x[0:1]
// (its bounds gathered from a table by the iteration number, which torch declares [1]) to an
// empty sequence, the tail x[1:] inserted after it; y = Concat(part 1, part 0).
Model TensorSplitModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({4}));
  graph.set_inputs({"x"});
  AddScalar(graph, "one_trip", Tensor::Scalar<int64_t>(1));
  AddScalar(graph, "true", Tensor::Scalar<bool>(true));
  graph.AddNode({"empty", "SequenceEmpty", "", {}, {"empty"}, {}});
  auto body = std::make_unique<Graph>(graph.shared_opsets());
  body->SetValueType("i", ValueType::Tensor(DataType::kInt64, SymbolicShape{Dimension::Known(1)}));
  body->SetValueType("cond_in", ValueType::Tensor(DataType::kBool, SymbolicShape{}));
  body->SetValueType("parts_in", ValueType::SequenceOf(FloatTensor({1})));
  body->set_inputs({"i", "cond_in", "parts_in"});
  body->AddInitializer("bounds", Tensor::FromVector<int64_t>({2}, {0, 1}));
  body->AddInitializer("one", Tensor::FromVector<int64_t>({1}, {1}));
  body->AddInitializer("axis", Tensor::FromVector<int64_t>({1}, {0}));
  body->AddNode({"start", "Gather", "", {"bounds", "i"}, {"start"}, {}});
  body->AddNode({"next", "Add", "", {"i", "one"}, {"next"}, {}});
  body->AddNode({"end", "Gather", "", {"bounds", "next"}, {"end"}, {}});
  body->AddNode({"slice", "Slice", "", {"x", "start", "end", "axis"}, {"part"}, {}});
  body->AddNode({"insert", "SequenceInsert", "", {"parts_in", "part"}, {"parts_out"}, {}});
  body->AddNode({"cond_out", "Identity", "", {"true"}, {"cond_out"}, {}});
  body->set_outputs({"cond_out", "parts_out"});
  graph.AddNode({"loop",
                 "Loop",
                 "",
                 {"one_trip", "true", "empty"},
                 {"head"},
                 GraphAttribute("body", std::move(body))});
  graph.AddInitializer("tail_start", Tensor::FromVector<int64_t>({1}, {1}));
  graph.AddInitializer("tail_end", Tensor::FromVector<int64_t>({1}, {4}));
  graph.AddInitializer("tail_axis", Tensor::FromVector<int64_t>({1}, {0}));
  graph.AddNode({"tail", "Slice", "", {"x", "tail_start", "tail_end", "tail_axis"}, {"tail"}, {}});
  graph.AddNode({"all", "SequenceInsert", "", {"head", "tail"}, {"parts"}, {}});
  AddScalar(graph, "zero_position", Tensor::Scalar<int64_t>(0));
  AddScalar(graph, "last_position", Tensor::Scalar<int64_t>(-1));
  graph.AddNode({"at0", "SequenceAt", "", {"parts", "zero_position"}, {"first"}, {}});
  graph.AddNode({"at1", "SequenceAt", "", {"parts", "last_position"}, {"second"}, {}});
  std::vector<Attribute> axis;
  axis.push_back(Attribute::Int("axis", 0));
  graph.AddNode({"concat", "Concat", "", {"second", "first"}, {"y"}, std::move(axis)});
  graph.set_outputs({"y"});
  graph.ResolveOuterScope();
  return model;
}

// y = If(Shape(x)[0] == 1, Squeeze(x, 0), Neg(x)), x [1, 3] or of a dynamic first dimension:
// torch's squeeze(0) of a dynamic dimension. `condition_input`: the condition is a model input.
Model SqueezeIfModel(bool dynamic, bool condition_input = false) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType(
      "x", ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{dynamic ? Dimension::Symbol("n") : Dimension::Known(1),
                                           Dimension::Known(3)}));
  graph.set_inputs(condition_input ? std::vector<std::string>{"x", "c"}
                                   : std::vector<std::string>{"x"});
  std::string condition = "c";
  if (condition_input) {
    graph.SetValueType("c", ValueType::Tensor(DataType::kBool, SymbolicShape{}));
  } else {
    AddScalar(graph, "zero", Tensor::Scalar<int64_t>(0));
    AddScalar(graph, "one", Tensor::Scalar<int64_t>(1));
    graph.AddNode({"shape", "Shape", "", {"x"}, {"shape"}, {}});
    graph.AddNode({"rows", "Gather", "", {"shape", "zero"}, {"rows"}, {}});
    graph.AddNode({"equal", "Equal", "", {"rows", "one"}, {"c"}, {}});
  }
  auto then_branch = std::make_unique<Graph>(graph.shared_opsets());
  then_branch->AddInitializer("axes", Tensor::FromVector<int64_t>({1}, {0}));
  then_branch->AddNode({"squeeze", "Squeeze", "", {"x", "axes"}, {"squeezed"}, {}});
  then_branch->set_outputs({"squeezed"});
  auto else_branch = std::make_unique<Graph>(graph.shared_opsets());
  else_branch->AddNode({"neg", "Neg", "", {"x"}, {"negated"}, {}});
  else_branch->set_outputs({"negated"});
  graph.set_outputs({"y"});
  AddIf(graph, condition, std::move(then_branch), std::move(else_branch), "y");
  return model;
}

}  // namespace

TEST_CASE("inline_control_flow unrolls a Loop of a constant trip count", "[optimizer]") {
  Model model = AccumulatingLoop(3, "final");
  OptimizeBasic(model);
  CHECK(CountOps(model.graph(), "Loop") == 0);
  // acc = [1, 2] + 0x + 1x + 2x with x = [10, 20].
  for (const auto level : {OptimizationLevel::kDisable, OptimizationLevel::kBasic}) {
    CheckClose(RunOnCpu(AccumulatingLoop(3, "final"), level, LoopFeeds()).output, {31, 62}, 0, 0);
  }
  // The scan output stacks acc after each iteration.
  const auto history =
      RunOnCpu(AccumulatingLoop(3, "history"), OptimizationLevel::kBasic, LoopFeeds());
  CHECK(std::count(history.executed.begin(), history.executed.end(), "Loop") == 0);
  CheckClose(history.output, {1, 2, 11, 22, 31, 62}, 0, 0);
}

TEST_CASE("inline_control_flow leaves loops it cannot unroll", "[optimizer]") {
  // A trip count fed at run time, one past kMaxTrips, and a condition computed from the data.
  const auto run = [](Model model, const std::vector<NamedValue>& feeds) {
    return RunOnCpu(std::move(model), OptimizationLevel::kBasic, feeds);
  };
  const auto fed = run(AccumulatingLoop(0, "final", /*trips_input=*/true), LoopFeeds(3));
  CHECK(std::count(fed.executed.begin(), fed.executed.end(), "Loop") == 1);
  CheckClose(fed.output, {31, 62}, 0, 0);
  const auto long_loop = run(AccumulatingLoop(9, "final"), LoopFeeds());
  CHECK(std::count(long_loop.executed.begin(), long_loop.executed.end(), "Loop") == 1);
  CheckClose(long_loop.output, {361, 722}, 0, 0);
  // Stops after the iteration that takes acc[0] past 20: 1, 11, 31.
  const auto stopping =
      run(AccumulatingLoop(5, "final", false, /*data_condition=*/true), LoopFeeds());
  CHECK(std::count(stopping.executed.begin(), stopping.executed.end(), "Loop") == 1);
  CheckClose(stopping.output, {31, 62}, 0, 0);
}

TEST_CASE("inline_control_flow and fold_sequence_at take torch's tensor_split apart",
          "[optimizer]") {
  Model model = TensorSplitModel();
  OptimizeBasic(model);
  for (const char* op : {"Loop", "SequenceEmpty", "SequenceInsert", "SequenceAt"}) {
    INFO(op);
    CHECK(CountOps(model.graph(), op) == 0);
  }
  const std::vector<NamedValue> feeds{{"x", Value(Tensor::FromVector<float>({4}, {1, 2, 3, 4}))}};
  for (const auto level : {OptimizationLevel::kDisable, OptimizationLevel::kBasic}) {
    CheckClose(RunOnCpu(TensorSplitModel(), level, feeds).output, {2, 3, 4, 1}, 0, 0);
  }
}

TEST_CASE("inline_control_flow inlines the branch a constant condition takes", "[optimizer]") {
  // x [1, 3]: Shape(x)[0] == 1 folds to true, and the Squeeze branch replaces the If.
  Model model = SqueezeIfModel(false);
  OptimizeForCpu(model, OptimizationLevel::kBasic);
  CHECK(CountOps(model.graph(), "If") == 0);
  CHECK(CountOps(model.graph(), "Squeeze") == 1);
  const std::vector<NamedValue> row{{"x", Value(Tensor::FromVector<float>({1, 3}, {1, 2, 3}))}};
  CheckClose(RunOnCpu(SqueezeIfModel(false), OptimizationLevel::kBasic, row).output, {1, 2, 3}, 0,
             0);
  // A dynamic first dimension or a fed condition decides at run time: the If stays.
  const std::vector<NamedValue> rows{
      {"x", Value(Tensor::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}))}};
  const auto dynamic = RunOnCpu(SqueezeIfModel(true), OptimizationLevel::kBasic, rows);
  CHECK(std::count(dynamic.executed.begin(), dynamic.executed.end(), "If") == 1);
  CheckClose(dynamic.output, {-1, -2, -3, -4, -5, -6}, 0, 0);
  std::vector<NamedValue> fed = row;
  fed.push_back({"c", Value(Tensor::Scalar<bool>(false))});
  const auto chosen = RunOnCpu(SqueezeIfModel(false, true), OptimizationLevel::kBasic, fed);
  CHECK(std::count(chosen.executed.begin(), chosen.executed.end(), "If") == 1);
  CheckClose(chosen.output, {-1, -2, -3}, 0, 0);
}

TEST_CASE("inline_control_flow leaves a Loop missing its condition input alone", "[optimizer]") {
  // Loop(M) with a constant M but no condition input (the schema wants both), its body of one
  // input and three outputs: counting its carried values from its inputs would underflow.
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", FloatTensor({2}));
  graph.set_inputs({"x"});
  graph.AddInitializer("M", Tensor::Scalar<int64_t>(2));
  auto body = std::make_unique<Graph>(graph.shared_opsets());
  body->SetValueType("i", ValueType::Tensor(DataType::kInt64, SymbolicShape{}));
  body->set_inputs({"i"});
  body->AddInitializer("yes", Tensor::Scalar<bool>(true));
  body->AddNode({"cond", "Identity", "", {"yes"}, {"cond"}, {}});
  body->AddNode({"a", "Neg", "", {"x"}, {"a"}, {}});
  body->AddNode({"b", "Abs", "", {"x"}, {"b"}, {}});
  body->set_outputs({"cond", "a", "b"});
  graph.AddNode(
      {"loop", "Loop", "", {"M"}, {"first", "second"}, GraphAttribute("body", std::move(body))});
  graph.set_outputs({"first"});
  graph.ResolveOuterScope();
  OptimizerOptions options;
  options.level = OptimizationLevel::kBasic;
  const Status status = OptimizeGraph(model, options, {});
  INFO(status.ToString());
  CHECK(CountOps(model.graph(), "Loop") == 1);
}

}  // namespace ort::test
