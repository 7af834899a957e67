// The key padding mask torch's F.multi_head_attention_forward (nn.MultiheadAttention) adds to
// its [B*N,S,T] bmm scores, recognised so that fuse_attention can hand the raw 2-D mask to
// com.microsoft Attention:
//   scores + c * Where(Reshape(Expand(view(masked(m), [B,1,1,T]), [B,N,1,T]), [B*N,1,T]), f, 0)
// with masked(m) true where m is zero (key_padding_mask = m == 0), f the fill (-inf), c > 0
// baddbmm's beta (left out when 1), and 0 zeros_like (ConstantOfShape, or its folded constant)
// or the attn_mask.
#pragma once

#include <optional>
#include <string>

#include "lib/optimizer/attention_mask.h"

namespace ort {

struct BatchedKeyMask {
  /// filter is c * f; `applied` is the Add; `chain` the rest, consumers first.
  KeyPaddingMask mask;
  /// m viewed as [B,1,1,T], expanded to [B,N,1,T], reshaped to [B*N,1,T]; the zeros filled.
  std::string viewed, expanded, batched, zeros;
  /// With attn_mask as well, F.multi_head_attention_forward fills the padded keys into it
  /// instead of into zeros: Where(batched, f, attn_mask), beta 1; `zeros` is then empty.
  std::string attn_mask;

  /// True when symbolic shapes prove m [B,T] and the steps' shapes for the B and T of
  /// `projected` (the self-attention's [B,T,N*h], or [T,B,N*h] `sequence_first`) and N `heads`.
  bool Proves(const Graph& graph, const std::string& projected, bool sequence_first,
              int64_t heads) const;
};

/// Matches `value`, the input of the attention Softmax, as a BatchedKeyMask.
std::optional<BatchedKeyMask> MatchBatchedKeyMask(const Graph& graph, const std::string& value);

}  // namespace ort
