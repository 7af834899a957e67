// The attn_mask torch's F.multi_head_attention_forward (nn.MultiheadAttention, and through it
// nn.TransformerEncoderLayer/DecoderLayer) adds to its [B*N,S,T] bmm scores: one [S,T] mask
// (float, or a bool one turned into -inf by Where) unsqueezed to [1,S,T], times baddbmm's beta.
// Added as it is, it is com.microsoft Attention's attention_bias viewed as [1,1,S,T]: the kernel
// adds it to the scaled scores before the softmax as the Add did, so a row the mask fills with
// -inf gives NaN in both.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

struct SequenceBias {
  /// The [1,S,T] or [S,T] term added to the scores.
  std::string bias;
  /// The scores before the bias.
  std::string scores;
  const Node* add = nullptr;
  /// The bias's rank, 2 or 3, once proven.
  size_t rank = 0;
};

/// `value` = Add(scores, bias) in either order, read by `readers` only, the scores being the side
/// a MatMul or com.microsoft FusedMatMul (or a scalar Mul/Div of one) writes and the bias the
/// other.
std::optional<SequenceBias> MatchSequenceBias(const Graph& graph, const std::string& value,
                                              const std::vector<const Node*>& readers);

/// True (setting its rank) when symbolic shapes prove `bias` [1,S,T] or [S,T], with S dimension 1
/// of `queries`
/// ([B*N,S,h]) and T dimension `key_axis` of `keys`: it then broadcasts over B*N alone.
bool ProvesSequenceBias(const Graph& graph, SequenceBias& bias, const std::string& queries,
                        const std::string& keys, size_t key_axis);

/// True when no element of `value` can be +inf or NaN: a constant, ConstantOfShape, or a Where
/// of such, through Unsqueeze, Reshape and Trilu. Adding -inf to such a bias is -inf, as
/// filling -inf into it is, so a key padding mask may go to Attention's mask_index beside it.
bool NeverPositiveInfinityOrNaN(const Graph& graph, const std::string& value);

}  // namespace ort
