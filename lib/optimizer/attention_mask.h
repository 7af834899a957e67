// The key-padding masks that BERT-family exporters apply to attention scores, recognised so that
// fuse_attention can hand the raw 2-D mask to com.microsoft Attention, whose kernel adds
// mask_filter_value to every masked score.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/ir/graph.h"
#include "lib/optimizer/shape_elements.h"

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

/// The mask m when `value` is true exactly where m is nonzero (`keep`) or zero (`!keep`): m itself
/// when bool, Cast(m, bool), Equal(m, 0), Not of the opposite form; those nodes go to `chain`.
std::optional<std::string> MatchMaskIndicator(const Graph& graph, const std::string& value,
                                              bool keep, std::vector<const Node*>& chain);

/// A dimension of a tensor: the sequence lengths a causal mask is checked against.
struct DimensionOf {
  std::string tensor;
  int64_t axis = 0;
};

/// A causal mask applied to [B,N,S,T] scores as GPT-2 writes it:
///   Where(tril[.., T - S : T, : T], scores, filter)
/// with tril a constant lower-triangular [M,M] (or [1,1,M,M]) buffer, sliced one axis per Slice:
/// key j is hidden from query i exactly when j > T - S + i, i.e. when it is after the query's
/// position behind a past of T - S keys (com.microsoft unidirectional attention).
struct CausalMask {
  std::string scores;
  float filter = 0;
  std::vector<const Node*> applied;  // the Where
  std::vector<const Node*> chain;    // the Slices and a Cast, removed once unused
  /// The slice bounds as written: the query axis from `start_key - start_query` (or the
  /// constant `start`) to `query_end`, the key axis from 0 to `key_end`.
  ShapeElement start_key, start_query, query_end, key_end;
  std::optional<int64_t> start;

  /// True when the bounds are T - S, T and T for T a dimension in `key_lengths` and S one in
  /// `query_lengths` (or, as constants, for the static lengths given).
  bool Proves(const Graph& graph, const std::vector<DimensionOf>& key_lengths,
              const std::vector<DimensionOf>& query_lengths) const;
};

/// Matches `value`, read only by the next step of the scores, as a CausalMask.
std::optional<CausalMask> MatchCausalMask(const Graph& graph, const std::string& value);

}  // namespace ort
