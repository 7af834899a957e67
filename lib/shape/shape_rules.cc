#include "lib/shape/shape_rules.h"

#include <string>
#include <unordered_map>

namespace ort {

RuleContext::RuleContext(SymbolicShapes& analysis, const Node& node)
    : analysis_(analysis),
      node_(node),
      opset_(analysis.graph().OpsetVersion(kOnnxDomain)),
      outputs_(node.outputs().size()) {}

const TensorFacts* RuleContext::Input(size_t i) const {
  return node_.HasInput(i) ? &analysis_.Facts(node_.inputs()[i]) : nullptr;
}

const std::vector<DimExpr>* RuleContext::Shape(size_t i) const {
  const TensorFacts* facts = Input(i);
  return facts != nullptr && facts->shape ? &*facts->shape : nullptr;
}

const std::vector<DimExpr>* RuleContext::Values(size_t i) const {
  const TensorFacts* facts = Input(i);
  return facts != nullptr && facts->values ? &*facts->values : nullptr;
}

std::optional<std::vector<int64_t>> RuleContext::Ints(size_t i) const {
  const std::vector<DimExpr>* values = Values(i);
  if (values == nullptr) return std::nullopt;
  std::vector<int64_t> ints;
  for (const DimExpr& value : *values) {
    const auto constant = value.AsConstant();
    if (!constant) return std::nullopt;
    ints.push_back(*constant);
  }
  return ints;
}

const Tensor* RuleContext::ConstantInput(size_t i) const {
  return node_.HasInput(i) ? analysis_.graph().GetConstantInitializer(node_.inputs()[i], true)
                           : nullptr;
}

std::string RuleContext::StringAttribute(std::string_view name, std::string_view fallback) const {
  const Attribute* attribute = node_.FindAttribute(name);
  return std::string(attribute != nullptr && attribute->type == AttributeType::kString
                         ? std::string_view(attribute->s)
                         : fallback);
}

int64_t RuleContext::IntAttribute(std::string_view name, int64_t fallback) const {
  const Attribute* attribute = node_.FindAttribute(name);
  return attribute != nullptr && attribute->type == AttributeType::kInt ? attribute->i : fallback;
}

std::optional<std::vector<int64_t>> RuleContext::IntsAttribute(std::string_view name) const {
  const Attribute* attribute = node_.FindAttribute(name);
  if (attribute == nullptr || attribute->type != AttributeType::kInts) return std::nullopt;
  return attribute->ints;
}

void RuleContext::SetShape(size_t i, std::vector<DimExpr> shape) {
  // A shape no tensor can have (a negative size, known sizes multiplying past int64) stays
  // unknown: passes and the memory planner multiply known dims unchecked, and the kernel reports
  // the error by node at run time.
  std::vector<int64_t> known;
  for (const DimExpr& dim : shape) {
    if (auto constant = dim.AsConstant()) known.push_back(*constant);
  }
  if (!CheckedElementCount(known).ok()) return;
  if (i < outputs_.size()) outputs_[i].shape = std::move(shape);
}

void RuleContext::SetValues(size_t i, std::vector<DimExpr> values, DataType type, bool scalar) {
  if (i >= outputs_.size() || (scalar && values.size() != 1)) return;
  TensorFacts& facts = outputs_[i];
  facts.shape = scalar
                    ? std::vector<DimExpr>{}
                    : std::vector<DimExpr>{DimExpr::Constant(static_cast<int64_t>(values.size()))};
  if (values.size() <= kMaxTrackedValues) {
    facts.values = std::move(values);
    facts.value_type = type;
  }
}

void RuleContext::CopyInput(size_t from, size_t to, bool with_values) {
  const TensorFacts* input = Input(from);
  if (input == nullptr || to >= outputs_.size()) return;
  outputs_[to].shape = input->shape;
  if (with_values && input->values) {
    outputs_[to].values = input->values;
    outputs_[to].value_type = input->value_type;
  }
}

const TensorFacts& RuleContext::SubgraphOutput(const Graph& subgraph, size_t i) {
  static const TensorFacts kNothing;
  if (i >= subgraph.outputs().size()) return kNothing;
  return analysis_.Subgraph(subgraph).Facts(subgraph.outputs()[i]);
}

std::optional<std::vector<DimExpr>> TensorValues(const Tensor& tensor) {
  if (tensor.shape().rank() > 1 || static_cast<size_t>(tensor.NumElements()) > kMaxTrackedValues) {
    return std::nullopt;
  }
  std::vector<DimExpr> values;
  if (tensor.dtype() == DataType::kBool) {
    for (bool value : tensor.Span<bool>()) values.push_back(DimExpr::Constant(value ? 1 : 0));
    return values;
  }
  if (tensor.dtype() != DataType::kInt64 && tensor.dtype() != DataType::kInt32) {
    return std::nullopt;
  }
  auto ints = ReadInt64Values(tensor);
  if (!ints.ok()) return std::nullopt;
  for (int64_t value : *ints) values.push_back(DimExpr::Constant(value));
  return values;
}

std::optional<size_t> ResolveAxis(int64_t axis, size_t rank, bool inclusive) {
  const auto count = static_cast<int64_t>(rank);
  if (axis < -count || axis > count || (axis == count && !inclusive)) return std::nullopt;
  return static_cast<size_t>(axis < 0 ? axis + count : axis);
}

std::optional<DimExpr> BroadcastDim(const DimExpr& a, const DimExpr& b) {
  if (a == b) return a;
  const auto a_constant = a.AsConstant(), b_constant = b.AsConstant();
  if (a_constant == 1) return b;
  if (b_constant == 1) return a;
  // min(x, c) with c >= 1 against x: equal to x, or 1 when x is larger (x[:seq] of a table
  // added to a [.., seq, ..] tensor), or x = 1 = min(1, c); the result is x in every valid case.
  const auto bounds = [](const DimExpr& dim, const DimExpr& minimum) {
    const auto operands = minimum.AsMin();
    return operands && ((operands->first == dim && operands->second.IsPositive()) ||
                        (operands->second == dim && operands->first.IsPositive()));
  };
  if (bounds(a, b)) return a;
  if (bounds(b, a)) return b;
  // A number other than 1 fixes the result: the other side is that number or 1.
  if (a_constant && b_constant) return std::nullopt;
  if (a_constant) return a;
  if (b_constant) return b;
  return std::nullopt;
}

std::optional<std::vector<DimExpr>> BroadcastShapes(
    RuleContext& context, const std::vector<std::vector<DimExpr>>& shapes) {
  size_t rank = 0;
  for (const auto& shape : shapes) rank = std::max(rank, shape.size());
  std::vector<DimExpr> result(rank, DimExpr::Constant(1));
  std::vector<bool> unknown(rank, false);
  for (const auto& shape : shapes) {
    const size_t offset = rank - shape.size();
    for (size_t i = 0; i < shape.size(); ++i) {
      if (unknown[offset + i]) continue;
      const auto dim = BroadcastDim(result[offset + i], shape[i]);
      if (dim) {
        result[offset + i] = *dim;
      } else {
        unknown[offset + i] = true;
      }
    }
  }
  for (size_t i = 0; i < rank; ++i) {
    if (unknown[i]) result[i] = context.Fresh();
  }
  return result;
}

DimExpr PickEqual(const SymbolTable& symbols, const std::vector<DimExpr>& dims) {
  for (const DimExpr& dim : dims) {
    if (dim.AsConstant()) return dim;
  }
  for (const DimExpr& dim : dims) {
    if (!symbols.IsFresh(dim)) return dim;
  }
  return dims.front();
}

void RuleRegistry::Add(std::string_view domain, std::initializer_list<std::string_view> ops,
                       ShapeRule rule) {
  for (std::string_view op : ops) entries.emplace_back(std::string(domain), std::string(op), rule);
}

namespace {

std::unordered_map<std::string, ShapeRule> BuildRules() {
  RuleRegistry registry;
  AddElementwiseRules(registry);
  AddShapeOpRules(registry);
  AddTensorOpRules(registry);
  AddNnRules(registry);
  AddContribRules(registry);
  std::unordered_map<std::string, ShapeRule> rules;
  for (const auto& [domain, op, rule] : registry.entries) rules[domain + ":" + op] = rule;
  return rules;
}

}  // namespace

ShapeRule FindShapeRule(std::string_view domain, std::string_view op_type) {
  static const std::unordered_map<std::string, ShapeRule> kRules = BuildRules();
  const auto it = kRules.find(std::string(domain) + ":" + std::string(op_type));
  return it == kRules.end() ? nullptr : it->second;
}

}  // namespace ort
