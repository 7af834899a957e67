#include "lib/optimizer/attention_patterns.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>

#include <fmt/format.h>

#include "lib/optimizer/pattern_utils.h"

namespace ort {

bool HasPerm(const Node& node, std::initializer_list<int64_t> perm) {
  const Attribute* attribute = node.FindAttribute("perm");
  return attribute != nullptr &&
         std::equal(attribute->ints.begin(), attribute->ints.end(), perm.begin(), perm.end());
}

const Node* MatchScoresFusedMatMul(const Graph& graph, const std::string& scores,
                                   const std::vector<const Node*>& readers, float& scale,
                                   bool& keys_transposed) {
  const Node* node = graph.Producer(scores);
  if (node == nullptr || node->op_type() != "FusedMatMul" || node->domain() != kMsDomain ||
      node->outputs()[0] != scores || graph.IsGraphOutput(scores)) {
    return nullptr;
  }
  for (const Node* consumer : graph.Consumers(scores)) {
    if (std::find(readers.begin(), readers.end(), consumer) == readers.end()) return nullptr;
  }
  const auto int_attribute = [node](const char* name) {
    const Attribute* attribute = node->FindAttribute(name);
    return attribute != nullptr ? attribute->i : 0;
  };
  const Attribute* alpha = node->FindAttribute("alpha");
  const float factor = alpha != nullptr ? alpha->f : 1.0f;
  if (int_attribute("transA") != 0 || int_attribute("transBatchA") != 0 ||
      int_attribute("transBatchB") != 0 || factor == 0.0f || !std::isfinite(factor)) {
    return nullptr;
  }
  scale *= factor;
  keys_transposed = int_attribute("transB") != 0;
  return node;
}

bool IsFloatTensor(const Tensor* tensor, std::optional<std::vector<int64_t>> dims) {
  if (tensor == nullptr || tensor->dtype() != DataType::kFloat) return false;
  return !dims || tensor->shape().dims() == *dims;
}

std::optional<std::vector<int64_t>> UnsqueezeAxes(const Graph& graph, const Node& unsqueeze) {
  std::optional<std::vector<int64_t>> axes;
  if (const Attribute* attribute = unsqueeze.FindAttribute("axes")) {
    axes = attribute->ints;
  } else {
    axes = ConstantInts(graph, unsqueeze, 1);
  }
  if (axes) std::sort(axes->begin(), axes->end());
  return axes;
}

Tensor ConcatColumns(const std::vector<ColumnRange>& parts) {
  const TensorShape& first = parts.front().tensor->shape();
  const int64_t rows = first.rank() == 2 ? first[0] : 1;
  int64_t columns = 0;
  for (const ColumnRange& part : parts) columns += part.count;
  std::vector<float> merged(static_cast<size_t>(rows * columns));
  int64_t offset = 0;
  for (const ColumnRange& part : parts) {
    const int64_t width = part.tensor->shape().dims().back();
    const float* source = part.tensor->Data<float>() + part.begin;
    for (int64_t r = 0; r < rows; ++r) {
      std::memcpy(merged.data() + r * columns + offset, source + r * width,
                  sizeof(float) * part.count);
    }
    offset += part.count;
  }
  const TensorShape shape =
      first.rank() == 2 ? TensorShape({rows, columns}) : TensorShape({columns});
  return Tensor::FromVector<float>(shape, std::span<const float>(merged));
}

std::string CastToInt32(Graph& graph, const std::string& value) {
  const ValueType* type = graph.FindTypeInScope(value);
  if (type != nullptr && type->IsTensor() && type->elem_type == DataType::kInt32) return value;
  const auto int32 = static_cast<int64_t>(DataType::kInt32);
  for (const Node* consumer : graph.Consumers(value)) {
    const Attribute* to = consumer->FindAttribute("to");
    if (consumer->op_type() == "Cast" && consumer->domain().empty() && to != nullptr &&
        to->i == int32 && consumer->inputs()[0] == value) {
      return consumer->outputs()[0];
    }
  }
  const std::string output = graph.UniqueValueName(fmt::format("{}_int32", value));
  NodeSpec cast;
  cast.name = graph.UniqueNodeName(fmt::format("{}_cast_int32", value));
  cast.op_type = "Cast";
  cast.inputs = {value};
  cast.outputs = {output};
  cast.attributes.push_back(Attribute::Int("to", int32));
  graph.AddNode(std::move(cast));
  graph.SetValueType(
      output, ValueType::Tensor(DataType::kInt32,
                                type != nullptr && type->IsTensor() ? type->shape : std::nullopt));
  return output;
}

void RemoveInitializerIfUnused(Graph& graph, const std::string& name) {
  if (graph.GetInitializer(name) == nullptr || graph.IsGraphOutput(name) ||
      !graph.Consumers(name).empty()) {
    return;
  }
  graph.RemoveInitializer(name);
  auto inputs = graph.inputs();
  const auto input = std::find(inputs.begin(), inputs.end(), name);
  if (input != inputs.end()) {
    inputs.erase(input);
    graph.set_inputs(std::move(inputs));
  }
}

void AddScaleUnlessDefault(std::vector<Attribute>& attributes, float scale, int64_t head_size) {
  const float default_scale = 1.0f / std::sqrt(static_cast<float>(head_size));
  if (scale != default_scale) attributes.push_back(Attribute::Float("scale", scale));
}

std::string FlatQkvBias(Graph& graph, const std::string& bias, const Tensor* constant,
                        int64_t width, const std::string& name_hint) {
  if (constant != nullptr && constant->shape().rank() == 1) return bias;
  std::vector<float> values(static_cast<size_t>(width), 0.0f);
  if (constant != nullptr) {
    const float* data = constant->Data<float>();
    values.assign(data, data + width);
  }
  const std::string name = graph.UniqueValueName(name_hint);
  graph.AddInitializer(name, Tensor::FromVector<float>({width}, std::span<const float>(values)));
  return name;
}

}  // namespace ort
