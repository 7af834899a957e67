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

}  // namespace ort
