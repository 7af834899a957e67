#include <catch2/catch.hpp>

#include "test/providers/cpu/controlflow/graph_test_util.h"
#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

std::vector<Attribute> Attrs(std::vector<std::pair<std::string, int64_t>> values) {
  std::vector<Attribute> attributes;
  for (auto& [name, value] : values) attributes.push_back(Attribute::Int(name, value));
  return attributes;
}

// Runs SplitToSequence on x [2, 3] = [[1,2,3],[4,5,6]], with `split` when given.
Status Split(std::vector<std::pair<std::string, int64_t>> attributes, const Tensor* split,
             std::vector<Value>* outputs) {
  TestModel model(11);
  model.main().Input("x", FloatType({2, 3}));
  std::vector<std::string> inputs = {"x"};
  std::vector<std::pair<std::string, Value>> feeds = {{"x", Floats({2, 3}, {1, 2, 3, 4, 5, 6})}};
  if (split != nullptr) {
    std::vector<int64_t> dims = split->shape().dims();
    model.main().Input("split", TensorType(split->dtype(), dims));
    inputs.push_back("split");
    feeds.emplace_back("split", *split);
  }
  model.main().Node("SplitToSequence", inputs, {"seq"}, Attrs(std::move(attributes))).Output("seq");
  return model.Run(feeds, outputs);
}

TensorSequence FloatSequence(std::vector<Tensor> tensors) {
  return TensorSequence{DataType::kFloat, std::move(tensors)};
}

}  // namespace

TEST_CASE("SplitToSequence without split gives single slices", "[sequence][SplitToSequence]") {
  std::vector<Value> outputs;
  REQUIRE(Split({{"axis", 1}}, nullptr, &outputs).ToString() == "OK");
  CheckValue(outputs[0], FloatSequence({Floats({2, 1}, {1, 4}), Floats({2, 1}, {2, 5}),
                                        Floats({2, 1}, {3, 6})}));
  REQUIRE(Split({{"axis", -2}, {"keepdims", 0}}, nullptr, &outputs).ToString() == "OK");
  CheckValue(outputs[0], FloatSequence({Floats({3}, {1, 2, 3}), Floats({3}, {4, 5, 6})}));
}

TEST_CASE("SplitToSequence by chunk size and by lengths", "[sequence][SplitToSequence]") {
  std::vector<Value> outputs;
  const Tensor chunk = Int64s({}, {2});
  REQUIRE(Split({{"axis", 1}}, &chunk, &outputs).ToString() == "OK");
  CheckValue(outputs[0], FloatSequence({Floats({2, 2}, {1, 2, 4, 5}), Floats({2, 1}, {3, 6})}));
  const Tensor lengths = OpTester::MakeTensor<int32_t>({3}, {0, 1, 2});
  REQUIRE(Split({{"axis", 1}, {"keepdims", 0}}, &lengths, &outputs).ToString() == "OK");
  CheckValue(outputs[0], FloatSequence({Floats({2, 0}, {}), Floats({2, 1}, {1, 4}),
                                        Floats({2, 2}, {2, 3, 5, 6})}));
}

TEST_CASE("SplitToSequence rejects lengths that do not add up", "[sequence][SplitToSequence]") {
  std::vector<Value> outputs;
  const Tensor lengths = Int64s({2}, {1, 1});
  Status status = Split({{"axis", 1}}, &lengths, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("sum to 2") != std::string::npos);
  const Tensor zero = Int64s({}, {0});
  status = Split({}, &zero, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("positive") != std::string::npos);
  status = Split({{"axis", 2}}, nullptr, &outputs);
  REQUIRE_FALSE(status.ok());
}

TEST_CASE("ConcatFromSequence concatenates or stacks", "[sequence][ConcatFromSequence]") {
  for (int64_t new_axis : {0, 1}) {
    TestModel model(11);
    model.main()
        .Input("a", FloatType({2, 1}))
        .Input("b", FloatType({2, 1}))
        .Node("SequenceConstruct", {"a", "b"}, {"seq"})
        .Node("ConcatFromSequence", {"seq"}, {"joined"},
              Attrs({{"axis", -1}, {"new_axis", new_axis}}))
        .Output("joined");
    std::vector<Value> outputs;
    REQUIRE(model.Run({{"a", Floats({2, 1}, {1, 2})}, {"b", Floats({2, 1}, {3, 4})}}, &outputs)
                .ToString() == "OK");
    if (new_axis == 0) {
      CheckValue(outputs[0], Floats({2, 2}, {1, 3, 2, 4}));
    } else {
      CheckValue(outputs[0], Floats({2, 1, 2}, {1, 3, 2, 4}));
    }
  }
}

TEST_CASE("ConcatFromSequence joins uneven pieces and strings", "[sequence][ConcatFromSequence]") {
  TestModel model(11);
  model.main()
      .Input("a", TensorType(DataType::kString, {1, 2}))
      .Input("b", TensorType(DataType::kString, {2, 2}))
      .Node("SequenceConstruct", {"a", "b"}, {"seq"})
      .Node("ConcatFromSequence", {"seq"}, {"joined"}, Attrs({{"axis", 0}}))
      .Output("joined");
  std::vector<Value> outputs;
  REQUIRE(model
              .Run({{"a", OpTester::MakeTensor<std::string>({1, 2}, {"a", "b"})},
                    {"b", OpTester::MakeTensor<std::string>({2, 2}, {"c", "d", "e", "f"})}},
                   &outputs)
              .ToString() == "OK");
  CheckValue(outputs[0], OpTester::MakeTensor<std::string>({3, 2}, {"a", "b", "c", "d", "e", "f"}));
}

TEST_CASE("ConcatFromSequence rejects mismatched shapes and empty sequences",
          "[sequence][ConcatFromSequence]") {
  TestModel model(11);
  model.main()
      .Input("a", FloatType({1, 2}))
      .Input("b", FloatType({1, 3}))
      .Node("SequenceConstruct", {"a", "b"}, {"seq"})
      .Node("ConcatFromSequence", {"seq"}, {"joined"}, Attrs({{"axis", 0}}))
      .Output("joined");
  std::vector<Value> outputs;
  Status status =
      model.Run({{"a", Floats({1, 2}, {1, 2})}, {"b", Floats({1, 3}, {1, 2, 3})}}, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("cannot join") != std::string::npos);

  TestModel empty(11);
  empty.main()
      .Node("SequenceEmpty", {}, {"seq"})
      .Node("ConcatFromSequence", {"seq"}, {"joined"}, Attrs({{"axis", 0}}))
      .Output("joined");
  status = empty.Run({}, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("empty") != std::string::npos);
}

}  // namespace ort::test
