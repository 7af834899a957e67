// Matching shared by fuse_attention and fuse_cross_attention: the query, key and value
// projections of a multi-head attention block (each x -> MatMul [-> Add] [-> Split or Slice of a
// packed projection] -> heads, head_layout.h's chains included), the masks and the merge, and the
// edits both rewrites make.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/optimizer/attention_heads.h"
#include "lib/optimizer/attention_mask.h"
#include "lib/optimizer/sequence_bias.h"

namespace ort {

// One projection x -> MatMul [-> Add] -> Reshape [B,S,N,h] -> Transpose(perm), with scalar
// factors anywhere after the MatMul.
struct Projection : HeadSplit {
  std::string x;
  // The projection's columns of weight (and bias) start at column_begin: a packed [Wq|Wk|Wv]
  // projection is split after the MatMul.
  const Tensor* weight = nullptr;
  const Tensor* bias = nullptr;  // null without a bias Add
  int64_t column_begin = 0;
  const Node* split = nullptr;
  std::string split_output;
  std::string weight_name, bias_name;
  /// The leading HeadSplit::nodes: the head split alone, without the projection's own nodes.
  size_t head_nodes = 0;
};

struct AttentionMatch {
  Projection q, k, v;
  /// Keys and values projected from another input than the queries (a decoder's memory): the
  /// projections stay, and MultiHeadAttention reads their outputs.
  bool cross = false;
  std::optional<KeyPaddingMask> mask;
  std::optional<SequenceBias> bias;
  float scale = 1;
  HeadMerge merge;
  /// Every node replaced: the projections too, but for `cross`, their head splits only.
  std::vector<const Node*> nodes;
};

/// The attention block whose Softmax is `softmax`: self-attention (one input) or, `cross`, keys
/// and values of one other input; nullopt for anything else.
std::optional<AttentionMatch> MatchAttention(const Graph& graph, const Node& softmax);

/// Adds Transpose(input, perm 1,0,2) writing `output`.
void AddTranspose(Graph& graph, const std::string& input, const std::string& output);
/// `value` [S,B,D] as [B,S,D], by a new Transpose.
std::string SwapLeadingAxes(Graph& graph, const std::string& value, std::string_view suffix);
/// The [1,S,T] or [S,T] `bias` as Attention's [1,1,S,T] attention_bias, by a new Unsqueeze.
std::string AttentionBias4d(Graph& graph, const SequenceBias& sequence_bias);

/// The value the fused node writes for `merge`: the merge's output (renamed when Reshapes are to
/// be rewired to it), or a new batch-first value when the merge is sequence-first.
std::string FusedOutput(Graph& graph, HeadMerge& merge);
/// Once the fused node has replaced the block: transposes a sequence-first merge's `output` into
/// place and rewires the merge's Reshapes.
void FinishMerge(Graph& graph, const std::string& output, const HeadMerge& merge);

}  // namespace ort
