// An additive bias on attention scores, as T5 writes its relative position bias with the padding
// and causal masks folded in: softmax(scores + bias), which com.microsoft MultiHeadAttention
// takes as attention_bias when the bias is proven [B or 1, N or 1, S, T] for [B,N,S,T] scores.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/ir/graph.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {

struct AttentionBias {
  std::string bias;
  /// The scores before the bias.
  std::string scores;
  const Node* add = nullptr;
};

/// `value` = Add(scores, bias) in either order, the scores being the side a MatMul (or a scalar
/// factor of one) writes and the bias the other side; nullopt when neither or both sides are.
std::optional<AttentionBias> MatchAttentionBias(const Graph& graph, const std::string& value);

/// True when `bias` is provably [B or 1, N or 1, S, T] with [B,N,S,T] the proven shape of
/// `scores`, so that adding it broadcasts as MultiHeadAttention's attention_bias does. Where
/// inference cannot tell a dimension, the bias's broadcasting Add/Sub/Mul/Div and a
/// ConstantOfShape of a shape read (shape_reads.h, over `anchors`) are followed: a Slice [0, 1)
/// of dimension d is d or 1.
bool ProvesAttentionBiasShape(const Graph& graph, SymbolicShapes& shapes, const std::string& bias,
                              const std::string& scores, const std::vector<std::string>& anchors);

}  // namespace ort
