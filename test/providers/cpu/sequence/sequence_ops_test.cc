#include <catch2/catch.hpp>

#include "test/providers/cpu/controlflow/graph_test_util.h"
#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

std::vector<Attribute> Attrs(Attribute a) {
  std::vector<Attribute> attributes;
  attributes.push_back(std::move(a));
  return attributes;
}

Tensor Int32s(std::vector<int64_t> dims, std::vector<int32_t> values) {
  return OpTester::MakeTensor<int32_t>(std::move(dims), values);
}

// A model whose main graph reads a float sequence "seq" and scalar/tensor inputs as declared.
Status RunWithSequence(TestModel& model, const TensorSequence& sequence,
                       std::vector<std::pair<std::string, Value>> feeds,
                       std::vector<Value>* outputs) {
  feeds.emplace_back("seq", sequence);
  return model.Run(feeds, outputs);
}

TensorSequence FloatSequence(std::vector<Tensor> tensors) {
  return TensorSequence{DataType::kFloat, std::move(tensors)};
}

}  // namespace

TEST_CASE("SequenceConstruct, SequenceLength and SequenceAt", "[sequence][SequenceAt]") {
  TestModel model(11);
  model.main()
      .Input("a", FloatType({2}))
      .Input("b", FloatType({1}))
      .Input("c", FloatType({0}))
      .Input("position", TensorType(DataType::kInt32, {}))
      .Node("SequenceConstruct", {"a", "b", "c"}, {"seq"})
      .Node("SequenceLength", {"seq"}, {"length"})
      .Node("SequenceAt", {"seq", "position"}, {"element"})
      .Output("seq")
      .Output("length")
      .Output("element");
  std::vector<Value> outputs;
  REQUIRE(model
              .Run({{"a", Floats({2}, {1, 2})},
                    {"b", Floats({1}, {3})},
                    {"c", Floats({0}, {})},
                    {"position", Int32s({}, {-3})}},
                   &outputs)
              .ToString() == "OK");
  CheckValue(outputs[0], FloatSequence({Floats({2}, {1, 2}), Floats({1}, {3}), Floats({0}, {})}));
  CheckValue(outputs[1], Int64s({}, {3}));
  CheckValue(outputs[2], Floats({2}, {1, 2}));
}

TEST_CASE("SequenceAt rejects out-of-range positions", "[sequence][SequenceAt]") {
  for (int64_t position : {2, -3}) {
    TestModel model(11);
    model.main()
        .Input("seq", SequenceType(DataType::kFloat))
        .Input("position", TensorType(DataType::kInt64, {}))
        .Node("SequenceAt", {"seq", "position"}, {"element"})
        .Output("element");
    std::vector<Value> outputs;
    Status status = RunWithSequence(model, FloatSequence({Floats({1}, {1}), Floats({1}, {2})}),
                                    {{"position", Int64s({}, {position})}}, &outputs);
    REQUIRE_FALSE(status.ok());
    CHECK(status.message().find("out of range") != std::string::npos);
  }
}

TEST_CASE("SequenceInsert inserts at a position or at the end", "[sequence][SequenceInsert]") {
  TestModel model(11);
  model.main()
      .Input("seq", SequenceType(DataType::kFloat))
      .Input("x", FloatType({1}))
      .Input("position", TensorType(DataType::kInt64, {}))
      .Node("SequenceInsert", {"seq", "x"}, {"appended"})
      .Node("SequenceInsert", {"seq", "x", "position"}, {"inserted"})
      .Output("appended")
      .Output("inserted");
  std::vector<Value> outputs;
  const auto seq = FloatSequence({Floats({1}, {1}), Floats({1}, {2})});
  REQUIRE(RunWithSequence(model, seq, {{"x", Floats({1}, {9})}, {"position", Int64s({}, {-1})}},
                          &outputs)
              .ToString() == "OK");
  CheckValue(outputs[0], FloatSequence({Floats({1}, {1}), Floats({1}, {2}), Floats({1}, {9})}));
  CheckValue(outputs[1], FloatSequence({Floats({1}, {1}), Floats({1}, {9}), Floats({1}, {2})}));
}

TEST_CASE("SequenceInsert rejects a tensor of another type", "[sequence][SequenceInsert]") {
  TestModel model(11);
  model.main()
      .Input("seq", SequenceType(DataType::kFloat))
      .Input("x", TensorType(DataType::kInt64, {1}))
      .Node("SequenceInsert", {"seq", "x"}, {"out"})
      .Output("out");
  std::vector<Value> outputs;
  Status status = RunWithSequence(model, FloatSequence({Floats({1}, {1})}),
                                  {{"x", Int64s({1}, {1})}}, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("cannot insert") != std::string::npos);
}

TEST_CASE("SequenceEmpty starts a typed sequence that SequenceInsert fills",
          "[sequence][SequenceEmpty]") {
  TestModel model(11);
  model.main()
      .Input("x", TensorType(DataType::kString, {2}))
      .Node("SequenceEmpty", {}, {"empty"},
            Attrs(Attribute::Int("dtype", static_cast<int64_t>(DataType::kString))))
      .Node("SequenceLength", {"empty"}, {"zero"})
      .Node("SequenceInsert", {"empty", "x"}, {"one"})
      .Output("empty")
      .Output("zero")
      .Output("one");
  std::vector<Value> outputs;
  const Tensor words = OpTester::MakeTensor<std::string>({2}, {"a", "bc"});
  REQUIRE(model.Run({{"x", words}}, &outputs).ToString() == "OK");
  REQUIRE(outputs[0].IsSequence());
  CHECK(outputs[0].sequence().elem_type == DataType::kString);
  CHECK(outputs[0].sequence().tensors.empty());
  CheckValue(outputs[1], Int64s({}, {0}));
  CheckValue(outputs[2], TensorSequence{DataType::kString, {words}});
}

TEST_CASE("SequenceErase removes the last or a given element", "[sequence][SequenceErase]") {
  TestModel model(11);
  model.main()
      .Input("seq", SequenceType(DataType::kFloat))
      .Input("position", TensorType(DataType::kInt32, {}))
      .Node("SequenceErase", {"seq"}, {"without_last"})
      .Node("SequenceErase", {"seq", "position"}, {"without_first"})
      .Output("without_last")
      .Output("without_first");
  std::vector<Value> outputs;
  const auto seq = FloatSequence({Floats({1}, {1}), Floats({1}, {2}), Floats({1}, {3})});
  REQUIRE(RunWithSequence(model, seq, {{"position", Int32s({}, {-3})}}, &outputs).ToString() ==
          "OK");
  CheckValue(outputs[0], FloatSequence({Floats({1}, {1}), Floats({1}, {2})}));
  CheckValue(outputs[1], FloatSequence({Floats({1}, {2}), Floats({1}, {3})}));
}

TEST_CASE("SequenceErase rejects an empty sequence", "[sequence][SequenceErase]") {
  TestModel model(11);
  model.main()
      .Node("SequenceEmpty", {}, {"empty"})
      .Node("SequenceErase", {"empty"}, {"out"})
      .Output("out");
  std::vector<Value> outputs;
  Status status = model.Run({}, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("empty sequence") != std::string::npos);
}

}  // namespace ort::test
