#include "lib/optimizer/attention_mask.h"

#include <algorithm>

#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/shape_elements.h"

namespace ort {
namespace {

bool IsMaskType(const Graph& graph, const std::string& value) {
  const auto type = ElementTypeOf(graph, value);
  return RankOf(graph, value) == 2u && type &&
         (*type == DataType::kInt64 || *type == DataType::kInt32 || *type == DataType::kBool);
}

// True when `element` of a Reshape target is dimension `axis` of one of `tensors` (each of m's
// shape): read through Shape of one of them, of a tensor whose dimension the types prove equal,
// or the static size.
bool IsDimensionOf(const Graph& graph, const ShapeElement& element,
                   const std::vector<std::string>& tensors, int64_t axis) {
  if (element.kind == ShapeElement::Kind::kDim) {
    return std::any_of(tensors.begin(), tensors.end(), [&](const std::string& tensor) {
      return (element.axis == axis && element.tensor == tensor) ||
             ProvablySameDimension(graph, element.tensor, element.axis, tensor, axis);
    });
  }
  if (element.kind != ShapeElement::Kind::kValue) return false;
  return std::any_of(tensors.begin(), tensors.end(), [&](const std::string& tensor) {
    return RankOf(graph, tensor) == size_t{2} &&
           KnownDimension(graph, tensor, axis) == element.value;
  });
}

// `x` and the inputs its producer keeps the shape of (Cast, Not, Equal with a one-element
// constant): a Reshape target may read the dimensions of either.
std::vector<std::string> WithSameShape(const Graph& graph, const std::string& x) {
  std::vector<std::string> same_shape{x};
  const Node* producer = graph.Producer(x);
  if (producer == nullptr || !producer->domain().empty() || !producer->HasInput(0)) {
    return same_shape;
  }
  const std::string& op = producer->op_type();
  if (op == "Cast" || op == "Not") same_shape.push_back(producer->inputs()[0]);
  if (op == "Equal" && producer->inputs().size() == 2) {
    for (size_t i = 0; i < 2; ++i) {
      const Tensor* other = graph.GetConstantInitializer(producer->inputs()[1 - i], true);
      if (other != nullptr && other->NumElements() == 1 && other->shape().rank() <= 1) {
        same_shape.push_back(producer->inputs()[i]);
      }
    }
  }
  return same_shape;
}

// x[:, None, None, :] of a 2-D x, written as Unsqueeze(x, [1, 2]), Unsqueeze(Unsqueeze(x, [1]),
// [2]) or Reshape(x, [B, 1, 1, T]) built from x's shape: x, with the nodes appended to `chain`.
std::optional<std::string> MatchKeyBroadcast(const Graph& graph, const std::string& value,
                                             std::vector<const Node*>& chain) {
  const Node* node = graph.Producer(value);
  if (node == nullptr || !node->domain().empty() || node->outputs()[0] != value ||
      !node->HasInput(0)) {
    return std::nullopt;
  }
  if (node->op_type() == "Unsqueeze") {
    const auto axes = UnsqueezeAxes(graph, *node);
    if (axes == std::vector<int64_t>{1, 2}) {
      chain.push_back(node);
      return node->inputs()[0];
    }
    const Node* inner = graph.Producer(node->inputs()[0]);
    if (axes != std::vector<int64_t>{2} || !IsOnnxOp(inner, "Unsqueeze") ||
        UnsqueezeAxes(graph, *inner) != std::vector<int64_t>{1} ||
        !OnlyConsumer(graph, inner->outputs()[0])) {
      return std::nullopt;
    }
    chain.insert(chain.end(), {node, inner});
    return inner->inputs()[0];
  }
  if (node->op_type() != "Reshape" || !node->HasInput(1)) return std::nullopt;
  const std::string& x = node->inputs()[0];
  if (RankOf(graph, x) != 2u) return std::nullopt;
  const auto target = AnalyzeShapeValue(graph, node->inputs()[1]);
  if (!target || target->scalar || target->elements.size() != 4) return std::nullopt;
  const auto& e = target->elements;
  const auto is_value = [](const ShapeElement& element, int64_t v) {
    return element.kind == ShapeElement::Kind::kValue && element.value == v;
  };
  if (!is_value(e[1], 1) || !is_value(e[2], 1)) return std::nullopt;
  // The Reshape keeps x's elements in order, so [B, 1, 1, T] is x[:, None, None, :] exactly when
  // its first and last elements are x's dimensions; one of them may be -1 (then it is).
  const std::vector<std::string> same_shape = WithSameShape(graph, x);
  const Attribute* allowzero = node->FindAttribute("allowzero");
  const bool zero_copies = allowzero == nullptr || allowzero->i == 0;
  const bool first =
      IsDimensionOf(graph, e[0], same_shape, 0) || (zero_copies && is_value(e[0], 0));
  const bool last = IsDimensionOf(graph, e[3], same_shape, 1);
  if (!((first && last) || (first && is_value(e[3], -1)) || (last && is_value(e[0], -1)))) {
    return std::nullopt;
  }
  chain.push_back(node);
  return x;
}

// True when `value` is a one-element int or bool constant equal to zero (false).
bool IsZeroConstant(const Graph& graph, const std::string& value) {
  const Tensor* tensor = graph.GetConstantInitializer(value, true);
  if (tensor == nullptr || tensor->NumElements() != 1 || tensor->shape().rank() > 1) return false;
  switch (tensor->dtype()) {
    case DataType::kInt64:
      return tensor->Data<int64_t>()[0] == 0;
    case DataType::kInt32:
      return tensor->Data<int32_t>()[0] == 0;
    case DataType::kBool:
      return !tensor->Data<bool>()[0];
    default:
      return false;
  }
}

// The mask m when `value` is true exactly where m is nonzero (`keep`) or zero (`!keep`):
// m itself when bool, Cast(m, bool), Equal(m, 0), Not of the opposite form.
std::optional<std::string> MatchIndicator(const Graph& graph, const std::string& value, bool keep,
                                          std::vector<const Node*>& chain, int depth = 0) {
  const auto type = ElementTypeOf(graph, value);
  if (keep && IsMaskType(graph, value) && type == DataType::kBool) return value;
  const Node* node = graph.Producer(value);
  if (node == nullptr || !node->domain().empty() || depth > 2) return std::nullopt;
  if (node->op_type() == "Not" && node->HasInput(0)) {
    chain.push_back(node);
    return MatchIndicator(graph, node->inputs()[0], !keep, chain, depth + 1);
  }
  if (keep && node->op_type() == "Cast" && node->HasInput(0)) {
    const Attribute* to = node->FindAttribute("to");
    if (to == nullptr || to->i != static_cast<int64_t>(DataType::kBool) ||
        !IsMaskType(graph, node->inputs()[0])) {
      return std::nullopt;
    }
    chain.push_back(node);
    return node->inputs()[0];
  }
  if (!keep && node->op_type() == "Equal" && node->inputs().size() == 2) {
    for (size_t i = 0; i < 2; ++i) {
      const std::string& mask = node->inputs()[i];
      if (IsZeroConstant(graph, node->inputs()[1 - i]) && IsMaskType(graph, mask)) {
        chain.push_back(node);
        return mask;
      }
    }
  }
  return std::nullopt;
}

// scores + (1 - float(m[:, None, None, :])) * filter; the Cast may come before or after the
// broadcast.
std::optional<KeyPaddingMask> MatchAdditive(const Graph& graph, const Node& add) {
  for (size_t i = 0; i < 2; ++i) {
    KeyPaddingMask match;
    const Node* mul = graph.Producer(add.inputs()[1 - i]);
    if (!IsOnnxOp(mul, "Mul") || mul->inputs().size() != 2) continue;
    const Node* sub = nullptr;
    for (size_t j = 0; j < 2 && sub == nullptr; ++j) {
      const auto filter = ScalarFloatConstant(graph, mul->inputs()[j]);
      const Node* producer = graph.Producer(mul->inputs()[1 - j]);
      if (!filter || !IsOnnxOp(producer, "Sub") || producer->inputs().size() != 2) continue;
      match.filter = *filter;
      sub = producer;
    }
    if (sub == nullptr || !OnlyConsumer(graph, sub->outputs()[0]) ||
        !IsScalarConstant(graph, sub->inputs()[0], 1.0f)) {
      continue;
    }
    match.chain = {mul, sub};
    // A float mask could hold fractions: only an int or bool mask cast to float is a 0/1 mask.
    const auto float_cast = [&](const std::string& value) -> const Node* {
      const Node* cast = graph.Producer(value);
      const Attribute* to = IsOnnxOp(cast, "Cast") ? cast->FindAttribute("to") : nullptr;
      if (to == nullptr || to->i != static_cast<int64_t>(DataType::kFloat)) return nullptr;
      return cast;
    };
    std::string value = sub->inputs()[1];
    const Node* cast = float_cast(value);
    if (cast != nullptr) {
      match.chain.push_back(cast);
      value = cast->inputs()[0];
    }
    auto broadcast = MatchKeyBroadcast(graph, value, match.chain);
    if (!broadcast) continue;
    if (cast == nullptr && (cast = float_cast(*broadcast)) != nullptr) {
      match.chain.push_back(cast);
      broadcast = cast->inputs()[0];
    }
    if (cast == nullptr || !IsMaskType(graph, *broadcast)) continue;
    match.mask = *broadcast;
    match.scores = add.inputs()[i];
    match.applied = {&add};
    return match;
  }
  return std::nullopt;
}

// True when expanding to `shape` adds nothing Where's broadcast against `scores` would not: each
// of its 4 elements is 1 or the matching dimension of the scores (constant folding turns
// Shape(scores) into such a constant when the shapes are static).
bool ExpandsWithin(const Graph& graph, const std::string& shape, const std::string& scores) {
  const auto elements = AnalyzeShapeValue(graph, shape);
  const ValueType* type = graph.FindTypeInScope(scores);
  if (!elements || elements->scalar || elements->elements.size() != 4 || type == nullptr ||
      !type->IsTensor() || !type->shape || type->shape->size() != 4) {
    return false;
  }
  for (size_t i = 0; i < 4; ++i) {
    const ShapeElement& element = elements->elements[i];
    const Dimension& dim = (*type->shape)[i];
    const bool fits = (element.kind == ShapeElement::Kind::kValue &&
                       (element.value == 1 || (dim.IsKnown() && dim.value == element.value))) ||
                      (element.kind == ShapeElement::Kind::kDim && element.tensor == scores &&
                       element.axis == static_cast<int64_t>(i));
    if (!fits) return false;
  }
  return true;
}

// Where(masked, filter, scores) or Where(kept, scores, filter), the condition broadcast from m and
// optionally expanded to Shape(scores).
std::optional<KeyPaddingMask> MatchWhere(const Graph& graph, const Node& where) {
  if (where.inputs().size() != 3) return std::nullopt;
  for (const bool keep : {false, true}) {
    KeyPaddingMask match;
    const auto filter = ScalarFloatConstant(graph, where.inputs()[keep ? 2 : 1]);
    if (!filter) continue;
    match.filter = *filter;
    match.scores = where.inputs()[keep ? 1 : 2];
    match.applied = {&where};
    std::string condition = where.inputs()[0];
    if (const Node* expand = IntermediateProducer(graph, condition, "Expand")) {
      if (expand->inputs().size() != 2) continue;
      const Node* shape = IntermediateProducer(graph, expand->inputs()[1], "Shape");
      if (shape != nullptr && shape->inputs()[0] == match.scores &&
          shape->FindAttribute("start") == nullptr && shape->FindAttribute("end") == nullptr) {
        match.applied.insert(match.applied.end(), {expand, shape});
      } else if (ExpandsWithin(graph, expand->inputs()[1], match.scores)) {
        match.applied.push_back(expand);
      } else {
        continue;
      }
      condition = expand->inputs()[0];
    }
    const auto indicator = MatchKeyBroadcast(graph, condition, match.chain);
    if (!indicator) continue;
    const auto mask = MatchIndicator(graph, *indicator, keep, match.chain);
    if (!mask) continue;
    match.mask = *mask;
    return match;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> MatchMaskIndicator(const Graph& graph, const std::string& value,
                                              bool keep, std::vector<const Node*>& chain) {
  return MatchIndicator(graph, value, keep, chain);
}

std::optional<KeyPaddingMask> MatchKeyPaddingMask(const Graph& graph, const std::string& value) {
  const Node* node = graph.Producer(value);
  if (node == nullptr || node->outputs()[0] != value || OnlyConsumer(graph, value) == nullptr) {
    return std::nullopt;
  }
  if (IsOnnxOp(node, "Add") && node->inputs().size() == 2) return MatchAdditive(graph, *node);
  if (IsOnnxOp(node, "Where")) return MatchWhere(graph, *node);
  return std::nullopt;
}

namespace {

// True when `element` is one of `dims`: read through Shape, or their static value.
bool IsOneOf(const Graph& graph, const ShapeElement& element,
             const std::vector<DimensionOf>& dims) {
  return std::any_of(dims.begin(), dims.end(), [&](const DimensionOf& dim) {
    if (element.kind == ShapeElement::Kind::kDim) {
      return element.tensor == dim.tensor && element.axis == dim.axis;
    }
    return element.kind == ShapeElement::Kind::kValue &&
           KnownDimension(graph, dim.tensor, dim.axis) == element.value;
  });
}

std::optional<int64_t> FirstStatic(const Graph& graph, const std::vector<DimensionOf>& dims) {
  for (const DimensionOf& dim : dims) {
    if (auto value = KnownDimension(graph, dim.tensor, dim.axis)) return value;
  }
  return std::nullopt;
}

// The single element of a scalar or one-element shape value.
std::optional<ShapeElement> SingleElement(const Graph& graph, const std::string& value) {
  const auto elements = AnalyzeShapeValue(graph, value);
  if (!elements || elements->elements.size() != 1 ||
      elements->elements[0].kind == ShapeElement::Kind::kUnknown) {
    return std::nullopt;
  }
  return elements->elements[0];
}

// One axis of a Slice of the causal buffer: the bounds as written; a start may be a - b.
struct SliceAxis {
  int64_t axis = 0;
  ShapeElement start, start_subtrahend, end;
  bool start_is_difference = false;
};

std::optional<SliceAxis> ReadSliceAxis(const Graph& graph, const Node& slice, size_t rank) {
  if (graph.OpsetVersion("") < 10 || slice.inputs().size() < 4) return std::nullopt;
  const auto axes = ConstantInts(graph, slice, 3);
  if (!axes || axes->size() != 1) return std::nullopt;
  if (slice.HasInput(4) && ConstantInts(graph, slice, 4) != std::vector<int64_t>{1}) {
    return std::nullopt;
  }
  SliceAxis result;
  result.axis = (*axes)[0] < 0 ? (*axes)[0] + static_cast<int64_t>(rank) : (*axes)[0];
  const auto end = SingleElement(graph, slice.inputs()[2]);
  if (!end) return std::nullopt;
  result.end = *end;
  std::string start = slice.inputs()[1];
  if (const Node* unsqueeze = graph.Producer(start); IsOnnxOp(unsqueeze, "Unsqueeze")) {
    start = unsqueeze->inputs()[0];
  }
  const Node* sub = graph.Producer(start);
  if (IsOnnxOp(sub, "Sub") && sub->inputs().size() == 2) {
    const auto minuend = SingleElement(graph, sub->inputs()[0]);
    const auto subtrahend = SingleElement(graph, sub->inputs()[1]);
    if (!minuend || !subtrahend) return std::nullopt;
    result.start = *minuend;
    result.start_subtrahend = *subtrahend;
    result.start_is_difference = true;
    return result;
  }
  const auto first = SingleElement(graph, slice.inputs()[1]);
  if (!first) return std::nullopt;
  result.start = *first;
  return result;
}

// True when `buffer` is [M,M] (or [1,1,M,M]) with nonzero elements exactly on and below the
// diagonal.
bool IsLowerTriangular(const Tensor& buffer) {
  const auto& dims = buffer.shape().dims();
  const size_t rank = dims.size();
  if ((rank != 2 && rank != 4) || (rank == 4 && (dims[0] != 1 || dims[1] != 1)) ||
      dims[rank - 1] != dims[rank - 2]) {
    return false;
  }
  const int64_t m = dims[rank - 1];
  const auto nonzero = [&](int64_t i) -> std::optional<bool> {
    switch (buffer.dtype()) {
      case DataType::kBool:
        return buffer.Data<bool>()[i];
      case DataType::kUint8:
        return buffer.Data<uint8_t>()[i] != 0;
      case DataType::kInt32:
        return buffer.Data<int32_t>()[i] != 0;
      case DataType::kInt64:
        return buffer.Data<int64_t>()[i] != 0;
      case DataType::kFloat:
        return buffer.Data<float>()[i] != 0.0f;
      default:
        return std::nullopt;
    }
  };
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < m; ++c) {
      const auto value = nonzero(r * m + c);
      if (!value || *value != (c <= r)) return false;
    }
  }
  return true;
}

}  // namespace

bool CausalMask::Proves(const Graph& graph, const std::vector<DimensionOf>& key_lengths,
                        const std::vector<DimensionOf>& query_lengths) const {
  if (!IsOneOf(graph, query_end, key_lengths) || !IsOneOf(graph, key_end, key_lengths)) {
    return false;
  }
  if (!start) {
    return IsOneOf(graph, start_key, key_lengths) && IsOneOf(graph, start_query, query_lengths);
  }
  const auto keys = FirstStatic(graph, key_lengths);
  const auto queries = FirstStatic(graph, query_lengths);
  return keys && queries && *start == *keys - *queries;
}

std::optional<CausalMask> MatchCausalMask(const Graph& graph, const std::string& value) {
  const Node* where = graph.Producer(value);
  if (!IsOnnxOp(where, "Where") || where->inputs().size() != 3 || where->outputs()[0] != value) {
    return std::nullopt;
  }
  CausalMask mask;
  const auto filter = ScalarFloatConstant(graph, where->inputs()[2]);
  if (!filter) return std::nullopt;
  mask.filter = *filter;
  mask.scores = where->inputs()[1];
  mask.applied = {where};
  std::string condition = where->inputs()[0];
  if (const Node* cast = graph.Producer(condition); IsOnnxOp(cast, "Cast")) {
    const Attribute* to = cast->FindAttribute("to");
    if (to == nullptr || to->i != static_cast<int64_t>(DataType::kBool)) return std::nullopt;
    mask.chain.push_back(cast);
    condition = cast->inputs()[0];
  }
  std::vector<const Node*> slices;
  const Tensor* buffer = nullptr;
  while (buffer == nullptr && slices.size() <= 2) {
    buffer = graph.GetConstantInitializer(condition, true);
    if (buffer != nullptr) break;
    const Node* slice = graph.Producer(condition);
    if (!IsOnnxOp(slice, "Slice")) return std::nullopt;
    slices.push_back(slice);
    condition = slice->inputs()[0];
  }
  if (buffer == nullptr || slices.size() != 2 || !IsLowerTriangular(*buffer)) return std::nullopt;
  const size_t rank = buffer->shape().rank();
  std::optional<SliceAxis> query_axis, key_axis;
  for (const Node* slice : slices) {
    auto axis = ReadSliceAxis(graph, *slice, rank);
    if (!axis) return std::nullopt;
    if (axis->axis == static_cast<int64_t>(rank) - 2 && !query_axis) {
      query_axis = axis;
    } else if (axis->axis == static_cast<int64_t>(rank) - 1 && !key_axis) {
      key_axis = axis;
    } else {
      return std::nullopt;
    }
    mask.chain.push_back(slice);
  }
  const bool key_from_zero = key_axis->start.kind == ShapeElement::Kind::kValue &&
                             key_axis->start.value == 0 && !key_axis->start_is_difference;
  if (!key_from_zero) return std::nullopt;
  mask.key_end = key_axis->end;
  mask.query_end = query_axis->end;
  if (query_axis->start_is_difference) {
    mask.start_key = query_axis->start;
    mask.start_query = query_axis->start_subtrahend;
  } else if (query_axis->start.kind == ShapeElement::Kind::kValue) {
    mask.start = query_axis->start.value;
  } else {
    return std::nullopt;
  }
  return mask;
}

}  // namespace ort
