// Constant terms that attention blocks add to their [B', N, S, T] scores before the softmax, as
// one attention_bias for com.microsoft Attention: a relative position bias ([1|N, S, T], gathered
// from a table and folded to a constant), and Swin's shifted-window mask, added under a view of
// the scores as [B, W, N, S, T] (B' = B*W windows, window w of image b at b*W + w).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

/// The scores' per-image shape [N, S, T], each known or nullopt.
using ScoreDims = std::array<std::optional<int64_t>, 3>;

/// A constant added to the scores, broadcast over [B', N, S, T] (`windowed` false) or over the
/// windowed view [B, W, N, S, T].
struct ScoreTerm {
  const Tensor* constant = nullptr;
  bool windowed = false;
};

struct ScoreBias {
  /// The scores before any term was added.
  std::string scores;
  /// The nodes that read `scores` as they were matched (the next step up must be read by these
  /// only).
  std::vector<const Node*> readers;
  /// W: the windows per image of the windowed view; 1 without one.
  int64_t windows = 1;
  /// The terms in the order the model adds them, first to the raw scores first.
  std::vector<ScoreTerm> terms;
  /// The Adds, and the Reshapes into and out of the windowed view.
  std::vector<const Node*> nodes;

  /// The sum of the terms as one float constant [W, N, S, T]: with W > 1 it holds window w's bias
  /// at w and must be tiled over the images; with W = 1 it broadcasts over B' as it is.
  Tensor Fold(const ScoreDims& dims) const;
};

/// True when a float bias of `dims` folded to a constant stays within what constant folding
/// makes (64 MiB): declared dims of a hostile model must not turn a [1] mask into gigabytes.
bool FoldableBiasSize(std::span<const int64_t> dims);

/// Matches `value`, the softmax input read by `readers`, as scores plus constant float terms:
/// Adds (either operand the constant, broadcasting without enlarging any axis, so never along
/// B'), and at most one windowed view Reshape([-1, W, N, S, T]) -> Adds -> Reshape([-1, N, S, T]),
/// whose terms are 1 along B. Terms need the `dims` known; without any, `scores` is `value`.
ScoreBias MatchScoreBias(const Graph& graph, const std::string& value,
                         std::vector<const Node*> readers, const ScoreDims& dims);

}  // namespace ort
