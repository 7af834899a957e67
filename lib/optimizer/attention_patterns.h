// Queries and edits shared by the BERT fusions (fuse_attention, fuse_embed_layer_norm): node
// attributes read the same way in every opset, merged weights, and the int32 casts the
// com.microsoft BERT ops need for their index and mask inputs.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

/// True when the Transpose `node` has exactly the permutation `perm`.
bool HasPerm(const Node& node, std::initializer_list<int64_t> perm);
/// The scores as com.microsoft FusedMatMul(q, k) read by `readers` only
/// (fuse_matmul_scale_transpose made it of a block some other pass freed only later): its alpha
/// joins `scale`, and with transB the keys come untransposed ([B,N,S,h] heads, `keys_transposed`).
/// Null for anything else.
const Node* MatchScoresFusedMatMul(const Graph& graph, const std::string& scores,
                                   const std::vector<const Node*>& readers, float& scale,
                                   bool& keys_transposed);
/// True when `tensor` is a float tensor, of shape `dims` when given.
bool IsFloatTensor(const Tensor* tensor, std::optional<std::vector<int64_t>> dims = std::nullopt);
/// The axes of an Unsqueeze (attribute before opset 13, constant input from 13), sorted; nullopt
/// when they are not constant.
std::optional<std::vector<int64_t>> UnsqueezeAxes(const Graph& graph, const Node& unsqueeze);

/// Columns [begin, begin + count) of a float tensor's last axis.
struct ColumnRange {
  const Tensor* tensor = nullptr;
  int64_t begin = 0;
  int64_t count = 0;
};

/// Concatenates column ranges of float tensors along their last axis: [D, a], [D, b], [D, c] ->
/// [D, a+b+c], or 1-D [a], [b], [c] -> [a+b+c]. All must have the same rank and leading
/// dimensions.
Tensor ConcatColumns(const std::vector<ColumnRange>& parts);

/// `value` as int32: itself when it already is, else the output of a Cast(to int32) of it, reusing
/// one that an earlier fusion added.
std::string CastToInt32(Graph& graph, const std::string& value);

/// The packed QKV bias of a fused Attention, 1-D [width]: `bias` itself when `constant` (its
/// value, null when there is none) already is 1-D, else a new initializer named after `name_hint`
/// holding its values, or zeros when there is no bias: ONNX Runtime 1.30's CPU Attention crashes
/// without one.
std::string FlatQkvBias(Graph& graph, const std::string& bias, const Tensor* constant,
                        int64_t width, const std::string& name_hint);

/// Adds `scale` to a fused attention node's `attributes` unless it is the kernels' default,
/// 1/sqrt(head_size).
void AddScaleUnlessDefault(std::vector<Attribute>& attributes, float scale, int64_t head_size);

/// Removes initializer `name` when no node, subgraph or graph output reads it any more.
void RemoveInitializerIfUnused(Graph& graph, const std::string& name);

}  // namespace ort
