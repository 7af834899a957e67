// FLOP counts of Conv, ConvTranspose, Gemm and MatMul nodes, worked out by hand: 2 per
// multiply-add, at the sizes given for the inputs' symbolic dimensions.
#include <catch2/catch.hpp>

#include "lib/shape/flop_count.h"
#include "test/shape/shape_test_util.h"

namespace ort::test {
namespace {

void SetInt(Node& node, const std::string& name, int64_t value) {
  Attribute attribute;
  attribute.name = name;
  attribute.type = AttributeType::kInt;
  attribute.i = value;
  node.SetAttribute(std::move(attribute));
}

void SetInts(Node& node, const std::string& name, std::vector<int64_t> values) {
  Attribute attribute;
  attribute.name = name;
  attribute.type = AttributeType::kInts;
  attribute.ints = std::move(values);
  node.SetAttribute(std::move(attribute));
}

}  // namespace

TEST_CASE("FLOPs of convolutions and products at given sizes", "[shape][flops]") {
  ShapeGraph g;
  g.Input("x", {std::string("batch"), 3, 8, 8});
  g.Input("w", {4, 3, 3, 3});
  // Same padding: [batch, 4, 8, 8] outputs of 3 x 3 x 3 = 27 products each.
  SetInts(g.Add("Conv", {"x", "w"}, {"y"}), "pads", {1, 1, 1, 1});
  // ConvTranspose: each of the [batch, 4, 8, 8] inputs spreads over 2 x 2 x 2 outputs.
  g.Input("wt", {4, 2, 2, 2});
  SetInts(g.Add("ConvTranspose", {"y", "wt"}, {"up"}), "strides", {2, 2});
  // MatMul [batch, seq, 16] x [16, 10]: batch*seq*10 outputs of 16 products.
  g.Input("a", {std::string("batch"), std::string("seq"), 16});
  g.Input("b", {16, 10});
  g.Add("MatMul", {"a", "b"}, {"ab"});
  // Gemm with transA: A [16, 5] is read as [5, 16]; C [5, 7] sums 16 products per element.
  g.Input("ga", {16, 5});
  g.Input("gb", {16, 7});
  SetInt(g.Add("Gemm", {"ga", "gb"}, {"gc"}), "transA", 1);
  // A Relu is not counted.
  g.Add("Relu", {"gc"}, {"relu"});

  const FlopCount count = CountFlops(g.graph(), {{"batch", 2}, {"seq", 3}});
  CHECK(count.by_op_type.at("Conv") == 2.0 * (2 * 4 * 8 * 8) * 27);
  CHECK(count.by_op_type.at("ConvTranspose") == 2.0 * (2 * 4 * 8 * 8) * 8);
  CHECK(count.by_op_type.at("MatMul") == 2.0 * (2 * 3 * 10) * 16);
  CHECK(count.by_op_type.at("Gemm") == 2.0 * (5 * 7) * 16);
  CHECK(count.by_op_type.count("Relu") == 0);
  CHECK(count.total == count.by_op_type.at("Conv") + count.by_op_type.at("ConvTranspose") +
                           count.by_op_type.at("MatMul") + count.by_op_type.at("Gemm"));
  CHECK(count.unknown_nodes == 0);
}

TEST_CASE("A node whose sizes are not given is counted as unknown", "[shape][flops]") {
  ShapeGraph g;
  g.Input("a", {std::string("rows"), 16});
  g.Input("b", {16, 10});
  g.Add("MatMul", {"a", "b"}, {"ab"});
  const FlopCount count = CountFlops(g.graph(), {});
  CHECK(count.total == 0);
  CHECK(count.unknown_nodes == 1);
}

}  // namespace ort::test
