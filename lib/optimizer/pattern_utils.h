// Small queries and edits shared by optimizer rules: static types, constant inputs, and
// bypassing a node whose output equals its input.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

/// The fully static shape of `value` from its inferred type, or nullopt.
std::optional<TensorShape> StaticShapeOf(const Graph& graph, std::string_view value);
/// The element type of `value` when its type is a known tensor type.
std::optional<DataType> ElementTypeOf(const Graph& graph, std::string_view value);
/// Input `index` of `node` as int64 values when it is a constant initializer (int32 or int64).
std::optional<std::vector<int64_t>> ConstantInts(const Graph& graph, const Node& node,
                                                 size_t index);
/// True when `value` has exactly one reader (node input or implicit input) and is not a graph
/// output, so the node producing it may be folded into that reader.
bool HasSingleConsumer(const Graph& graph, std::string_view value);
/// Makes the readers of `node`'s output 0 read its input 0 and removes the node. The output must
/// not be a graph output.
void BypassNode(Graph& graph, Node& node);

/// Input `index` of `node` when it is a constant initializer no feed can override; else null.
const Tensor* ConstantInput(const Graph& graph, const Node& node, size_t index);
/// The producer of `node`'s input `index` when it is an ai.onnx `op_type` node whose output only
/// `node` reads (so the pair may become one node); else null.
const Node* SoleProducer(const Graph& graph, const Node& node, size_t index,
                         std::string_view op_type);
/// `producer` takes over `consumer`'s output 0 (its own output, read only by `consumer`, goes
/// away) and `consumer` is removed.
void AbsorbConsumer(Graph& graph, Node& producer, Node& consumer);

/// A float Conv whose weights (and bias, when given) are constant initializers: the shape the
/// Conv fusions fold per-channel constants into.
bool HasConstantFloatWeights(const Graph& graph, const Node& conv);
/// The ints attribute `name` of `node`, or `fallback` when it has none.
std::vector<int64_t> IntsAttributeOr(const Node& node, std::string_view name,
                                     std::vector<int64_t> fallback);
/// The float attribute `name` of `node`, or `fallback` when it has none.
float FloatAttribute(const Node& node, std::string_view name, float fallback);
/// Per-channel values of a float constant that broadcasts over a rank-`rank` NC... tensor along
/// the channel axis only ([C,1,1], [1,C,1,1], a single value); nullopt for any other shape.
std::optional<std::vector<float>> PerChannelValues(const Tensor& constant, int64_t channels,
                                                   size_t rank);
/// Gives `conv` new weight and bias initializers (named after the old weight).
void SetConvParameters(Graph& graph, Node& conv, Tensor weight, Tensor bias);

}  // namespace ort
