#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "test/providers/cpu/controlflow/graph_test_util.h"

namespace ort::test {
namespace {

// Body: acc_out = acc_in + step (step from the main graph), cond passed through, and acc_out
// also emitted as a scan output.
std::unique_ptr<Graph> AccumulatingBody(const TestModel& model) {
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("i", TensorType(DataType::kInt64, {}))
      .Input("cond_in", TensorType(DataType::kBool, {}))
      .Input("acc_in", FloatType({2}))
      .Node("Add", {"acc_in", "step"}, {"acc_out"})
      .Node("Mul", {"acc_out", "acc_out"}, {"squared"})
      .Output("cond_in", TensorType(DataType::kBool, {}))
      .Output("acc_out", FloatType({2}))
      .Output("squared", FloatType({2}));
  return body;
}

std::vector<Attribute> BodyAttribute(std::unique_ptr<Graph> body) {
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::GraphValue("body", std::move(body)));
  return attributes;
}

}  // namespace

TEST_CASE("Loop runs M iterations with loop-carried and scan outputs", "[controlflow][Loop]") {
  TestModel model(16);
  model.main()
      .Input("M", TensorType(DataType::kInt64, {}))
      .Input("acc", FloatType({2}))
      .Input("step", FloatType({2}))
      .Node("Loop", {"M", "", "acc"}, {"final", "history"}, BodyAttribute(AccumulatingBody(model)))
      .Output("final")
      .Output("history");
  std::vector<Value> outputs;
  Status status = model.Run(
      {{"M", Int64s({}, {3})}, {"acc", Floats({2}, {0, 1})}, {"step", Floats({2}, {1, -1})}},
      &outputs);
  REQUIRE(status.ToString() == "OK");
  CheckValue(outputs[0], Floats({2}, {3, -2}));
  // acc after each iteration: [1,0], [2,-1], [3,-2], squared.
  CheckValue(outputs[1], Floats({3, 2}, {1, 0, 4, 1, 9, 4}));
}

TEST_CASE("Loop with zero iterations returns the initial values and empty scans",
          "[controlflow][Loop]") {
  for (bool use_condition : {false, true}) {
    TestModel model(13);
    model.main()
        .Input("M", TensorType(DataType::kInt64, {}))
        .Input("cond", TensorType(DataType::kBool, {}))
        .Input("acc", FloatType({2}))
        .Input("step", FloatType({2}))
        .Node("Loop", {"M", "cond", "acc"}, {"final", "history"},
              BodyAttribute(AccumulatingBody(model)))
        .Output("final")
        .Output("history");
    std::vector<Value> outputs;
    // Either M = 0, or M = 5 with a false initial condition.
    Status status = model.Run({{"M", Int64s({}, {use_condition ? 5 : 0})},
                               {"cond", Bools({}, {!use_condition})},
                               {"acc", Floats({2}, {7, 8})},
                               {"step", Floats({2}, {1, 1})}},
                              &outputs);
    REQUIRE(status.ToString() == "OK");
    CheckValue(outputs[0], Floats({2}, {7, 8}));
    // The body declares its scan output as float[2]: an empty [0, 2] stack.
    CheckValue(outputs[1], Floats({0, 2}, {}));
  }
}

TEST_CASE("Loop stops when the body's condition turns false", "[controlflow][Loop]") {
  TestModel model(16);
  // cond_out = flags[i], read from a sequence in the main graph: true, true, false, true.
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("i", TensorType(DataType::kInt64, {}))
      .Input("cond_in", TensorType(DataType::kBool, {}))
      .Input("count_in", FloatType({1}))
      .Node("SequenceAt", {"flags", "i"}, {"cond_out"})
      .Node("Add", {"count_in", "one"}, {"count_out"})
      .Output("cond_out")
      .Output("count_out");
  model.main()
      .Input("f0", TensorType(DataType::kBool, {}))
      .Input("f1", TensorType(DataType::kBool, {}))
      .Input("f2", TensorType(DataType::kBool, {}))
      .Input("f3", TensorType(DataType::kBool, {}))
      .Input("count", FloatType({1}))
      .Initializer("one", Floats({1}, {1}))
      .Node("SequenceConstruct", {"f0", "f1", "f2", "f3"}, {"flags"})
      .Node("Loop", {"", "", "count"}, {"iterations"}, BodyAttribute(std::move(body)))
      .Output("iterations");
  std::vector<Value> outputs;
  Status status = model.Run({{"f0", Bools({}, {true})},
                             {"f1", Bools({}, {true})},
                             {"f2", Bools({}, {false})},
                             {"f3", Bools({}, {true})},
                             {"count", Floats({1}, {0})}},
                            &outputs);
  REQUIRE(status.ToString() == "OK");
  CheckValue(outputs[0], Floats({1}, {3}));
}

TEST_CASE("Loop carries sequences between iterations", "[controlflow][Loop]") {
  TestModel model(13);
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("i", TensorType(DataType::kInt64, {1}))
      .Input("cond_in", TensorType(DataType::kBool, {1}))
      .Input("seq_in", SequenceType(DataType::kInt64))
      .Node("SequenceInsert", {"seq_in", "i"}, {"seq_out"})
      .Output("cond_in")
      .Output("seq_out");
  model.main()
      .Input("M", TensorType(DataType::kInt64, {1}))
      .Node("SequenceEmpty", {}, {"empty"},
            [] {
              std::vector<Attribute> a;
              a.push_back(Attribute::Int("dtype", static_cast<int64_t>(DataType::kInt64)));
              return a;
            }())
      .Node("Loop", {"M", "", "empty"}, {"collected"}, BodyAttribute(std::move(body)))
      .Output("collected");
  std::vector<Value> outputs;
  REQUIRE(model.Run({{"M", Int64s({1}, {3})}}, &outputs).ToString() == "OK");
  // The body declares rank-1 counters, so each element is a [1] tensor.
  CheckValue(outputs[0], TensorSequence{DataType::kInt64,
                                        {Int64s({1}, {0}), Int64s({1}, {1}), Int64s({1}, {2})}});
}

TEST_CASE("Loop rejects scan outputs whose shape changes", "[controlflow][Loop]") {
  TestModel model(16);
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("i", TensorType(DataType::kInt64, {}))
      .Input("cond_in", TensorType(DataType::kBool, {}))
      .Node("SequenceAt", {"pieces", "i"}, {"piece"})
      .Output("cond_in")
      .Output("piece");
  model.main()
      .Input("a", FloatType({1}))
      .Input("b", FloatType({2}))
      .Node("SequenceConstruct", {"a", "b"}, {"pieces"})
      .Initializer("M", Int64s({}, {2}))
      .Node("Loop", {"M", ""}, {"stacked"}, BodyAttribute(std::move(body)))
      .Output("stacked");
  std::vector<Value> outputs;
  Status status = model.Run({{"a", Floats({1}, {1})}, {"b", Floats({2}, {1, 2})}}, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("changes across iterations") != std::string::npos);
}

TEST_CASE("An endless Loop stops when the run is terminated", "[controlflow][Loop]") {
  TestModel model(16);
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("i", TensorType(DataType::kInt64, {}))
      .Input("cond_in", TensorType(DataType::kBool, {}))
      .Input("x_in", FloatType({1}))
      .Node("Add", {"x_in", "x_in"}, {"x_out"})
      .Output("cond_in")
      .Output("x_out");
  model.main()
      .Input("x", FloatType({1}))
      .Node("Loop", {"", "", "x"}, {"y"}, BodyAttribute(std::move(body)))
      .Output("y");
  std::atomic<bool> terminate{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    terminate = true;
  });
  std::vector<Value> outputs;
  Status status = model.Run({{"x", Floats({1}, {1})}}, &outputs, 1, &terminate);
  stopper.join();
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("terminated") != std::string::npos);
}

}  // namespace ort::test
