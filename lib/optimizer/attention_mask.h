// The key-padding masks that BERT-family exporters apply to attention scores, recognised so that
// fuse_attention can hand the raw 2-D mask to com.microsoft Attention, whose kernel adds
// mask_filter_value to every masked score.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

/// A 2-D [B,T] mask m (nonzero = attend) applied to [B,N,S,T] scores.
struct KeyPaddingMask {
  /// m: an int32, int64 or bool model value.
  std::string mask;
  float filter = 0;
  /// The scores before the mask was applied.
  std::string scores;
  /// Nodes only this attention block uses (the Add or Where applying the mask, and for Where the
  /// Expand to the scores' shape with its Shape): they go with the fused block.
  std::vector<const Node*> applied;
  /// Nodes deriving the mask term from m, which every layer may share: removed once unused.
  std::vector<const Node*> chain;
};

/// Matches `value`, the input of the attention Softmax, as one of
///   scores + (1 - float(m[:, None, None, :])) * filter        (BERT, HF extended mask)
///   Where(m[:, None, None, :] == 0, filter, scores)           (DistilBERT masked_fill)
///   Where(bool(m)[:, None, None, :], scores, filter)
/// where m[:, None, None, :] is written as Unsqueeze(s) or as a Reshape to [B,1,1,T] built from
/// m's own shape, optionally expanded to Shape(scores). The Where forms give a fully masked row
/// the scores plus filter instead of filter alone, as onnxruntime's fusion does; with any
/// unmasked key in the row the softmax is the same.
std::optional<KeyPaddingMask> MatchKeyPaddingMask(const Graph& graph, const std::string& value);

}  // namespace ort
