#include <catch2/catch.hpp>

#include "test/providers/cpu/controlflow/graph_test_util.h"

namespace ort::test {
namespace {

TensorSequence FloatSequence(std::vector<Tensor> tensors) {
  return TensorSequence{DataType::kFloat, std::move(tensors)};
}

std::vector<Attribute> BodyAttribute(std::unique_ptr<Graph> body) {
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::GraphValue("body", std::move(body)));
  return attributes;
}

}  // namespace

TEST_CASE("SequenceMap maps elements with a tensor and another sequence",
          "[sequence][SequenceMap]") {
  TestModel model(17);
  // out1 = element + other[i] + bias; out2 = element * scale, where scale is an outer value.
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("element", TensorTypeUnknownShape(DataType::kFloat))
      .Input("other", TensorTypeUnknownShape(DataType::kFloat))
      .Input("bias", FloatType({1}))
      .Node("Add", {"element", "other"}, {"sum"})
      .Node("Add", {"sum", "bias"}, {"out1"})
      .Node("Mul", {"element", "scale"}, {"out2"})
      .Output("out1")
      .Output("out2");
  model.main()
      .Input("seq", SequenceType(DataType::kFloat))
      .Input("others", SequenceType(DataType::kFloat))
      .Input("bias", FloatType({1}))
      .Input("scale", FloatType({1}))
      .Node("SequenceMap", {"seq", "others", "bias"}, {"first", "second"},
            BodyAttribute(std::move(body)))
      .Output("first")
      .Output("second");
  std::vector<Value> outputs;
  REQUIRE(model
              .Run({{"seq", FloatSequence({Floats({2}, {1, 2}), Floats({1}, {3})})},
                    {"others", FloatSequence({Floats({2}, {10, 20}), Floats({1}, {30})})},
                    {"bias", Floats({1}, {100})},
                    {"scale", Floats({1}, {2})}},
                   &outputs)
              .ToString() == "OK");
  CheckValue(outputs[0], FloatSequence({Floats({2}, {111, 122}), Floats({1}, {133})}));
  CheckValue(outputs[1], FloatSequence({Floats({2}, {2, 4}), Floats({1}, {6})}));
}

TEST_CASE("SequenceMap of an empty sequence is empty", "[sequence][SequenceMap]") {
  TestModel model(17);
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("element", TensorTypeUnknownShape(DataType::kInt64))
      .Node("Add", {"element", "element"}, {"twice"})
      .Output("twice", TensorTypeUnknownShape(DataType::kInt64));
  std::vector<Attribute> attributes = BodyAttribute(std::move(body));
  model.main()
      .Node("SequenceEmpty", {}, {"seq"},
            [] {
              std::vector<Attribute> a;
              a.push_back(Attribute::Int("dtype", static_cast<int64_t>(DataType::kInt64)));
              return a;
            }())
      .Node("SequenceMap", {"seq"}, {"mapped"}, std::move(attributes))
      .Output("mapped");
  std::vector<Value> outputs;
  REQUIRE(model.Run({}, &outputs).ToString() == "OK");
  REQUIRE(outputs[0].IsSequence());
  CHECK(outputs[0].sequence().tensors.empty());
  CHECK(outputs[0].sequence().elem_type == DataType::kInt64);
}

TEST_CASE("SequenceMap rejects sequences of different lengths", "[sequence][SequenceMap]") {
  TestModel model(17);
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("a", TensorTypeUnknownShape(DataType::kFloat))
      .Input("b", TensorTypeUnknownShape(DataType::kFloat))
      .Node("Add", {"a", "b"}, {"c"})
      .Output("c");
  model.main()
      .Input("x", SequenceType(DataType::kFloat))
      .Input("y", SequenceType(DataType::kFloat))
      .Node("SequenceMap", {"x", "y"}, {"z"}, BodyAttribute(std::move(body)))
      .Output("z");
  std::vector<Value> outputs;
  Status status = model.Run({{"x", FloatSequence({Floats({1}, {1}), Floats({1}, {2})})},
                             {"y", FloatSequence({Floats({1}, {1})})}},
                            &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("has 1 elements") != std::string::npos);
}

}  // namespace ort::test
