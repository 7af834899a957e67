#include <catch2/catch.hpp>

#include "lib/ir/index_bounds.h"
#include "lib/ir/model.h"

namespace ort {
namespace {

// An "axis" attribute (Attribute is move-only, so no initializer list).
std::vector<Attribute> Axis(int64_t value) {
  std::vector<Attribute> attributes(1);
  attributes[0].name = "axis";
  attributes[0].type = AttributeType::kInt;
  attributes[0].i = value;
  return attributes;
}

void AddNode(Graph& graph, const std::string& op, std::vector<std::string> inputs,
             std::vector<std::string> outputs, std::vector<Attribute> attributes = {},
             std::string domain = "") {
  graph.AddNode({graph.UniqueNodeName(op), op, std::move(domain), std::move(inputs),
                 std::move(outputs), std::move(attributes)});
}

Tensor Zeros(std::vector<int64_t> dims) {
  return Tensor::Allocate(DataType::kFloat, TensorShape(std::move(dims))).value();
}

}  // namespace

TEST_CASE("Inputs that index a table are bounded by its size, through value-carrying ops",
          "[ir][index_bounds]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"ids", "segments", "mask", "picks", "classes", "x"});
  graph.AddInitializer("words", Zeros({30, 4}));
  graph.AddInitializer("segment_table", Zeros({2, 4}));
  // ids: Cast -> Unsqueeze -> Gather(words) on axis 0, and Gather(segment_table) too: the
  // smaller table bounds it.
  AddNode(graph, "Cast", {"ids"}, {"ids32"});
  AddNode(graph, "Unsqueeze", {"ids32", "axes"}, {"ids_3d"});
  AddNode(graph, "Gather", {"words", "ids_3d"}, {"embedded"});
  AddNode(graph, "Gather", {"segment_table", "ids"}, {"also"});
  // segments: Concat with another value, then Gather on axis -1 of a [4, 7] value.
  graph.SetValueType(
      "table_value",
      ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(4), Dimension::Known(7)}));
  AddNode(graph, "Concat", {"other", "segments"}, {"joined"}, Axis(0));
  AddNode(graph, "GatherElements", {"table_value", "joined"}, {"gathered"}, Axis(-1));
  // mask is arithmetic, not an index; it is also the data (not the index) of a Gather.
  AddNode(graph, "Mul", {"mask", "mask"}, {"squared"});
  AddNode(graph, "Gather", {"mask", "ids"}, {"mask_rows"});
  // picks: OneHot with a constant depth of 5.
  graph.AddInitializer("depth", Tensor::FromVector<int64_t>(TensorShape({}), {5}));
  AddNode(graph, "OneHot", {"picks", "depth", "on_off"}, {"hot"});
  // classes: com.microsoft EmbedLayerNormalization's segment_ids -> its segment embedding.
  graph.AddInitializer("position_table", Zeros({16, 4}));
  AddNode(graph, "EmbedLayerNormalization",
          {"ids", "classes", "words", "position_table", "segment_table", "gamma", "beta"},
          {"normed", "mask_index"}, {}, std::string(kMsDomain));

  const auto bounds = IndexInputBounds(graph);
  CHECK(bounds.at("ids") == 2);
  CHECK(bounds.at("segments") == 7);
  CHECK(bounds.at("picks") == 5);
  CHECK(bounds.at("classes") == 2);
  CHECK(bounds.count("mask") == 0);
  CHECK(bounds.count("x") == 0);
}

TEST_CASE("An index into a table of unknown size has no bound", "[ir][index_bounds]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"table", "ids"});
  AddNode(graph, "Gather", {"table", "ids"}, {"rows"});
  CHECK(IndexInputBounds(graph).empty());
}

}  // namespace ort
