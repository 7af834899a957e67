// Queries and edits shared by the extended level's fusions, which replace a chain of ai.onnx nodes
// by one com.microsoft contrib node (Gelu, LayerNormalization, FusedConv...).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

/// True when `value` is known to be a float tensor: the type the fused CPU kernels take.
bool IsFloatValue(const Graph& graph, std::string_view value);
/// The value of `value` when it is a constant initializer holding a single float (a scalar or a
/// one-element 1-D tensor); else nullopt.
std::optional<float> ScalarFloatConstant(const Graph& graph, std::string_view value);
/// True when `value` is a single float constant equal to `expected` within onnxruntime's
/// tolerance for pattern constants (absolute 1e-8 plus relative 1e-5).
bool IsScalarConstant(const Graph& graph, std::string_view value, float expected);

/// True when `node` is the ai.onnx op `op_type`.
bool IsOnnxOp(const Node* node, std::string_view op_type);
/// The input of the two-input `node` beside `value`, or "" when `node` does not read `value`
/// exactly once among exactly two inputs.
std::string OtherInput(const Node& node, std::string_view value);
/// The one node reading `value` when it has exactly one reader, reading it once, and `value` is
/// not a graph output: the condition for folding its producer into a fused node.
const Node* OnlyConsumer(const Graph& graph, std::string_view value);
/// The producer of `value` when it is the ai.onnx op `op_type` whose output 0 is `value`, read
/// only by one node and not a graph output.
const Node* IntermediateProducer(const Graph& graph, std::string_view value,
                                 std::string_view op_type);
/// The node reading `value` once as its only reader when it is the ai.onnx `op_type`; else null.
const Node* OnlyReaderOp(const Graph& graph, std::string_view value, std::string_view op_type);
/// True when the ReduceMean `mean` averages over the last axis only (-1, or the last of a known
/// `rank`), keeping it: the means of the norm patterns.
bool ReducesLastAxisKept(const Graph& graph, const Node& mean, std::optional<size_t> rank);
/// The length of a 1-D float gamma or beta a fused norm may read (a constant or a graph input);
/// nullopt for anything else.
std::optional<int64_t> NormParameterLength(const Graph& graph, std::string_view value);
/// The static rank of `value`, or nullopt when unknown.
std::optional<size_t> RankOf(const Graph& graph, std::string_view value);
/// True when the inferred types prove `a` and `b` tensors of one shape: equal ranks, and each
/// dimension known and equal or named by the same symbol.
bool ProvablySameShape(const Graph& graph, std::string_view a, std::string_view b);
/// Dimension `axis` of `value` when its inferred type knows it (the other dimensions may be
/// symbolic).
std::optional<int64_t> KnownDimension(const Graph& graph, std::string_view value, int64_t axis);
/// True when the inferred types prove dimension `axis_a` of `a` equal to `axis_b` of `b`: both
/// known and equal, or named by the same symbol.
bool ProvablySameDimension(const Graph& graph, std::string_view a, int64_t axis_a,
                           std::string_view b, int64_t axis_b);
/// The size of the last axis of `value` when it is known: from its type, or, where shape inference
/// gave up (dynamic sequence lengths), from the constant weight of the MatMul producing it.
std::optional<int64_t> LastDimension(const Graph& graph, std::string_view value);

/// The tail of the Gelu forms: `one_plus` is the Add of 1 and a function of `x`; matches
/// 0.5 * x * one_plus in the orders exporters write it, (x * one_plus) * 0.5, (0.5 * x) * one_plus
/// and (one_plus * 0.5) * x, with every intermediate read once. Appends the matched nodes to
/// `nodes` and returns the node producing the result, or null.
const Node* MatchHalfXTimes(const Graph& graph, const Node& one_plus, std::string_view x,
                            std::vector<const Node*>& nodes);

/// FusedConv's `activation_params` for `activation` when FusedConv implements it (Relu, Sigmoid,
/// Tanh, LeakyRelu, HardSigmoid, Clip with constant bounds) in the version onnxruntime fuses;
/// else nullopt.
std::optional<std::vector<float>> FusedConvActivationParams(const Graph& graph,
                                                            const Node& activation);

/// Copies an attribute that holds no subgraph (those of Conv, Gemm and activations).
Attribute CopyPlainAttribute(const Attribute& attribute, std::string name);

/// Removes `nodes` and adds `fused`, a com.microsoft node (or ai.onnx when its domain is empty)
/// that takes over their outputs; imports com.microsoft opset 1 when needed.
Node& ReplaceByFusedNode(Graph& graph, const std::vector<const Node*>& nodes, NodeSpec fused);
/// Removes `node` when nothing reads its outputs any more (a producer kept for other readers).
void RemoveIfUnused(Graph& graph, const Node& node);

}  // namespace ort
