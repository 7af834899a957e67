#include <catch2/catch.hpp>

#include "test/providers/cpu/controlflow/graph_test_util.h"

namespace ort::test {
namespace {

Attribute TypeAttribute(ValueType type) {
  Attribute attribute;
  attribute.name = "type";
  attribute.type = AttributeType::kTypeProto;
  attribute.type_protos.push_back(std::move(type));
  return attribute;
}

std::vector<Attribute> Attrs(Attribute a) {
  std::vector<Attribute> attributes;
  attributes.push_back(std::move(a));
  return attributes;
}

}  // namespace

TEST_CASE("Optional wraps a value or makes an empty optional", "[sequence][Optional]") {
  TestModel model(15);
  model.main()
      .Input("x", FloatType({2}))
      .Node("Optional", {"x"}, {"full"})
      .Node("Optional", {}, {"empty"}, Attrs(TypeAttribute(ValueType::Tensor(DataType::kFloat))))
      .Node("OptionalHasElement", {"full"}, {"full_has"})
      .Node("OptionalHasElement", {"empty"}, {"empty_has"})
      .Node("OptionalGetElement", {"full"}, {"element"})
      .Output("empty")
      .Output("full_has")
      .Output("empty_has")
      .Output("element");
  std::vector<Value> outputs;
  REQUIRE(model.Run({{"x", Floats({2}, {1, 2})}}, &outputs).ToString() == "OK");
  CHECK(outputs[0].IsNone());
  CheckValue(outputs[1], Bools({}, {true}));
  CheckValue(outputs[2], Bools({}, {false}));
  CheckValue(outputs[3], Floats({2}, {1, 2}));
}

TEST_CASE("Optional holds sequences", "[sequence][Optional]") {
  TestModel model(15);
  model.main()
      .Input("x", FloatType({1}))
      .Node("SequenceConstruct", {"x", "x"}, {"seq"})
      .Node("Optional", {"seq"}, {"maybe"})
      .Node("OptionalGetElement", {"maybe"}, {"back"})
      .Output("back");
  std::vector<Value> outputs;
  REQUIRE(model.Run({{"x", Floats({1}, {5})}}, &outputs).ToString() == "OK");
  CheckValue(outputs[0], TensorSequence{DataType::kFloat, {Floats({1}, {5}), Floats({1}, {5})}});
}

TEST_CASE("OptionalGetElement fails on an empty optional", "[sequence][OptionalGetElement]") {
  TestModel model(15);
  model.main()
      .Node("Optional", {}, {"empty"}, Attrs(TypeAttribute(ValueType::Tensor(DataType::kFloat))))
      .Node("OptionalGetElement", {"empty"}, {"element"})
      .Output("element");
  std::vector<Value> outputs;
  Status status = model.Run({}, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("optional is empty") != std::string::npos);
}

TEST_CASE("Optional needs a type to be empty", "[sequence][Optional]") {
  TestModel model(15);
  model.main().Node("Optional", {}, {"empty"}).Output("empty");
  std::vector<Value> outputs;
  Status status = model.Run({}, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("'type'") != std::string::npos);
}

TEST_CASE("Opset 18 optional ops accept plain values and omitted inputs",
          "[sequence][OptionalHasElement]") {
  TestModel model(18);
  model.main()
      .Input("x", FloatType({1}))
      .Node("OptionalHasElement", {"x"}, {"has_x"})
      .Node("OptionalHasElement", {""}, {"has_nothing"})
      .Node("OptionalGetElement", {"x"}, {"same"})
      .Output("has_x")
      .Output("has_nothing")
      .Output("same");
  std::vector<Value> outputs;
  REQUIRE(model.Run({{"x", Floats({1}, {4})}}, &outputs).ToString() == "OK");
  CheckValue(outputs[0], Bools({}, {true}));
  CheckValue(outputs[1], Bools({}, {false}));
  CheckValue(outputs[2], Floats({1}, {4}));
}

}  // namespace ort::test
