#include "lib/ir/index_bounds.h"

#include <algorithm>
#include <set>
#include <vector>

namespace ort {
namespace {

// Ops whose output holds (some of) the values of their first input, or of any input (Concat).
bool CarriesValues(const Node& node, size_t input) {
  static const std::set<std::string, std::less<>> kFirstInput = {
      "Cast",     "Reshape", "Unsqueeze", "Squeeze",   "Flatten",
      "Identity", "Expand",  "Tile",      "Transpose", "Slice"};
  if (!node.domain().empty()) return false;
  if (node.op_type() == "Concat") return true;
  return input == 0 && kFirstInput.count(node.op_type()) > 0;
}

// The static size of `value`'s dimension `axis` (negative counts from the end); -1 if unknown.
int64_t StaticDim(const Graph& graph, const std::string& value, int64_t axis) {
  std::vector<int64_t> dims;
  if (const Tensor* initializer = graph.GetInitializer(value)) {
    dims = initializer->shape().dims();
  } else if (const ValueInfo* info = graph.FindValueInfo(value); info && info->type.shape) {
    for (const Dimension& dim : *info->type.shape) dims.push_back(dim.value);
  } else {
    return -1;
  }
  const int64_t rank = static_cast<int64_t>(dims.size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return -1;
  return dims[static_cast<size_t>(axis)];
}

int64_t IntAttribute(const Node& node, std::string_view name, int64_t fallback) {
  const Attribute* attribute = node.FindAttribute(name);
  return attribute != nullptr && attribute->type == AttributeType::kInt ? attribute->i : fallback;
}

// The size of the table `node` indexes with input `input`; -1 when it takes no index there or
// the size is not static.
int64_t IndexedSize(const Graph& graph, const Node& node, size_t input) {
  const auto& inputs = node.inputs();
  if (node.domain().empty()) {
    if ((node.op_type() == "Gather" || node.op_type() == "GatherElements") && input == 1) {
      return StaticDim(graph, inputs[0], IntAttribute(node, "axis", 0));
    }
    if (node.op_type() == "OneHot" && input == 0 && node.HasInput(1)) {
      const Tensor* depth = graph.GetConstantInitializer(inputs[1], true);
      if (depth == nullptr || depth->NumElements() != 1) return -1;
      auto value = ReadInt64Values(*depth);
      return value.ok() ? value->front() : -1;
    }
    return -1;
  }
  if (node.domain() == kMsDomain && node.op_type() == "EmbedLayerNormalization") {
    // input_ids -> word_embedding, segment_ids -> segment_embedding, position_ids (8) ->
    // position_embedding.
    const size_t table = input == 0 ? 2 : input == 1 ? 4 : input == 8 ? 3 : 0;
    if (table == 0 || !node.HasInput(table)) return -1;
    return StaticDim(graph, inputs[table], 0);
  }
  return -1;
}

}  // namespace

std::map<std::string, int64_t> IndexInputBounds(const Graph& graph) {
  std::map<std::string, int64_t> bounds;
  for (const std::string& input : graph.InputsWithoutInitializers()) {
    std::vector<std::string> pending = {input};
    std::set<std::string> seen = {input};
    int64_t bound = -1;
    while (!pending.empty()) {
      const std::string value = std::move(pending.back());
      pending.pop_back();
      for (const Node* consumer : graph.Consumers(value)) {
        const auto& inputs = consumer->inputs();
        for (size_t i = 0; i < inputs.size(); ++i) {
          if (inputs[i] != value) continue;
          const int64_t size = IndexedSize(graph, *consumer, i);
          if (size > 0) bound = bound < 0 ? size : std::min(bound, size);
          if (CarriesValues(*consumer, i) && consumer->HasOutput(0) &&
              seen.insert(consumer->outputs()[0]).second) {
            pending.push_back(consumer->outputs()[0]);
          }
        }
      }
    }
    if (bound > 0) bounds[input] = bound;
  }
  return bounds;
}

}  // namespace ort
