#include <catch2/catch.hpp>

#include "test/providers/cpu/controlflow/graph_test_util.h"
#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

// Body: sum_out = sum_in + x; scan output = sum_out * x.
std::unique_ptr<Graph> SumBody(const TestModel& model, std::vector<int64_t> state_dims,
                               std::vector<int64_t> slice_dims) {
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("sum_in", FloatType(state_dims))
      .Input("x", FloatType(slice_dims))
      .Node("Add", {"sum_in", "x"}, {"sum_out"})
      .Node("Mul", {"sum_out", "x"}, {"weighted"})
      .Output("sum_out", FloatType(state_dims))
      .Output("weighted", FloatType(slice_dims));
  return body;
}

std::vector<Attribute> ScanAttributes(std::unique_ptr<Graph> body,
                                      std::vector<Attribute> extra = {}) {
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::GraphValue("body", std::move(body)));
  attributes.push_back(Attribute::Int("num_scan_inputs", 1));
  for (auto& attribute : extra) attributes.push_back(std::move(attribute));
  return attributes;
}

}  // namespace

TEST_CASE("Scan accumulates a state and stacks scan outputs", "[controlflow][Scan]") {
  TestModel model(11);
  model.main()
      .Input("init", FloatType({2}))
      .Input("xs", FloatType({3, 2}))
      .Node("Scan", {"init", "xs"}, {"sum", "ys"}, ScanAttributes(SumBody(model, {2}, {2})))
      .Output("sum")
      .Output("ys");
  std::vector<Value> outputs;
  REQUIRE(model
              .Run({{"init", Floats({2}, {0, 0})}, {"xs", Floats({3, 2}, {1, 2, 3, 4, 5, 6})}},
                   &outputs)
              .ToString() == "OK");
  CheckValue(outputs[0], Floats({2}, {9, 12}));
  // sums [1,2], [4,6], [9,12] times x.
  CheckValue(outputs[1], Floats({3, 2}, {1, 4, 12, 24, 45, 72}));
}

TEST_CASE("Scan honours input/output axes and directions", "[controlflow][Scan]") {
  std::vector<Attribute> extra;
  extra.push_back(Attribute::Ints("scan_input_axes", {-1}));
  extra.push_back(Attribute::Ints("scan_input_directions", {1}));
  extra.push_back(Attribute::Ints("scan_output_axes", {1}));
  extra.push_back(Attribute::Ints("scan_output_directions", {1}));
  TestModel model(16);
  model.main()
      .Input("init", FloatType({2}))
      .Input("xs", FloatType({2, 3}))
      .Node("Scan", {"init", "xs"}, {"sum", "ys"},
            ScanAttributes(SumBody(model, {2}, {2}), std::move(extra)))
      .Output("sum")
      .Output("ys");
  std::vector<Value> outputs;
  // Columns of xs, last first: [3,6], [2,5], [1,4].
  REQUIRE(model
              .Run({{"init", Floats({2}, {0, 0})}, {"xs", Floats({2, 3}, {1, 2, 3, 4, 5, 6})}},
                   &outputs)
              .ToString() == "OK");
  CheckValue(outputs[0], Floats({2}, {6, 15}));
  // Iteration outputs [9,36], [10,55], [6,60]; reversed and stacked along axis 1.
  CheckValue(outputs[1], Floats({2, 3}, {6, 10, 9, 60, 55, 36}));
}

TEST_CASE("Scan with an empty scan axis returns the initial state", "[controlflow][Scan]") {
  TestModel model(16);
  model.main()
      .Input("init", FloatType({2}))
      .Input("xs", FloatType({0, 2}))
      .Node("Scan", {"init", "xs"}, {"sum", "ys"}, ScanAttributes(SumBody(model, {2}, {2})))
      .Output("sum")
      .Output("ys");
  std::vector<Value> outputs;
  REQUIRE(
      model.Run({{"init", Floats({2}, {1, 2})}, {"xs", Floats({0, 2}, {})}}, &outputs).ToString() ==
      "OK");
  CheckValue(outputs[0], Floats({2}, {1, 2}));
  CheckValue(outputs[1], Floats({0, 2}, {}));
}

TEST_CASE("Scan 8 scans each batch entry up to its sequence length", "[controlflow][Scan]") {
  std::vector<Attribute> extra;
  extra.push_back(Attribute::Ints("directions", {1}));
  TestModel model(8);
  model.main()
      .Input("lens", TensorType(DataType::kInt64, {2}))
      .Input("init", FloatType({2, 1}))
      .Input("xs", FloatType({2, 3, 1}))
      .Node("Scan", {"lens", "init", "xs"}, {"sum", "ys"},
            ScanAttributes(SumBody(model, {1}, {1}), std::move(extra)))
      .Output("sum")
      .Output("ys");
  std::vector<Value> outputs;
  REQUIRE(model
              .Run({{"lens", Int64s({2}, {3, 1})},
                    {"init", Floats({2, 1}, {0, 10})},
                    {"xs", Floats({2, 3, 1}, {1, 2, 3, 4, 5, 6})}},
                   &outputs)
              .ToString() == "OK");
  // Entry 0 reversed: 3, 2, 1 -> sums 3, 5, 6. Entry 1 only its first step: 10 + 4.
  CheckValue(outputs[0], Floats({2, 1}, {6, 14}));
  CheckValue(outputs[1], Floats({2, 3, 1}, {9, 10, 6, 56, 0, 0}));
}

TEST_CASE("Scan rejects scan inputs of different lengths", "[controlflow][Scan]") {
  TestModel model(16);
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("a", FloatType({}))
      .Input("b", FloatType({}))
      .Node("Add", {"a", "b"}, {"c"})
      .Output("c");
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::GraphValue("body", std::move(body)));
  attributes.push_back(Attribute::Int("num_scan_inputs", 2));
  model.main()
      .Input("as", FloatType({2}))
      .Input("bs", FloatType({3}))
      .Node("Scan", {"as", "bs"}, {"cs"}, std::move(attributes))
      .Output("cs");
  std::vector<Value> outputs;
  Status status =
      model.Run({{"as", Floats({2}, {1, 2})}, {"bs", Floats({3}, {1, 2, 3})}}, &outputs);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("different lengths") != std::string::npos);
}

TEST_CASE("Scan slices and stacks packed int4 values", "[controlflow][Scan]") {
  // Rows of 3 elements start mid-byte; the reversed scan input swaps the two rows.
  TestModel model(21);
  auto body = model.NewSubgraph("body");
  GraphBuilder(*body)
      .Input("x", TensorType(DataType::kInt4, {3}))
      .Node("Identity", {"x"}, {"y"})
      .Output("y", TensorType(DataType::kInt4, {3}));
  model.main()
      .Input("xs", TensorType(DataType::kInt4, {2, 3}))
      .Node("Scan", {"xs"}, {"ys"},
            ScanAttributes(std::move(body),
                           [] {
                             std::vector<Attribute> extra;
                             extra.push_back(Attribute::Ints("scan_input_directions", {1}));
                             return extra;
                           }()))
      .Output("ys");
  std::vector<Value> outputs;
  REQUIRE(
      model
          .Run({{"xs", Value(OpTester::MakeFourBit(DataType::kInt4, {2, 3}, {-8, 1, 2, 3, 4, 7}))}},
               &outputs)
          .ToString() == "OK");
  CheckValue(outputs[0],
             Value(OpTester::MakeFourBit(DataType::kInt4, {2, 3}, {3, 4, 7, -8, 1, 2})));
}

}  // namespace ort::test
