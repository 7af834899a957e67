// Attention head layouts proven with symbolic shapes (lib/shape): any chain of Reshapes and
// Transposes between a projected [B,S,N*h] or sequence-first [S,B,N*h] tensor and the heads the
// score MatMuls read, [B,N,S,h] or torch.bmm's [B*N,S,h] (keys with S and h exchanged), and the
// chain merging the attention's [B,N,S,h] / [B*N,S,h] result back to [B,S,N*h] or [S,B,N*h]
// (HF Whisper's view(bsz*heads, -1, dim), nn.MultiheadAttention's sequence-first reshapes). Each
// Reshape target, however computed, must provably split or group whole axes of the layout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

/// The logical axes of attention heads.
enum class HeadAxis : uint8_t { kBatch, kSequence, kHeads, kHeadSize };
/// A tensor's dimensions, outermost first, each the row-major flattening of some axes.
using HeadLayout = std::vector<std::vector<HeadAxis>>;

/// The layouts heads are read in: [B,N,S,h] / [B*N,S,h], and keys' [B,N,h,S] / [B*N,h,S].
enum class HeadForm : uint8_t { kHeads, kTransposedHeads };

/// A chain `projected` -> Reshape/Transpose/scalar factors -> heads in `form`.
struct HeadChain {
  /// The rank-3 projection, [B,S,N*h] or, `sequence_first`, [S,B,N*h].
  std::string projected;
  bool sequence_first = false;
  int64_t heads = 0, head_size = 0;
  /// 4 for [B,N,..] heads, 3 for [B*N,..].
  size_t rank = 0;
  float scale = 1;
  /// The chain's nodes, the last one first.
  std::vector<const Node*> nodes;
};

/// The chain ending at `value` (read elsewhere only through its own end), with at least one
/// Reshape; nullopt when no chain proves `form`.
std::optional<HeadChain> MatchHeadChain(const Graph& graph, const std::string& value,
                                        HeadForm form);

/// A chain from the attention result `pv` (heads of `rank` over the projection `projected`, as
/// matched) through Reshapes and Transposes, each read once, to [B,S,N*h] or [S,B,N*h].
struct MergeChain {
  /// The value holding the merged heads.
  std::string output;
  /// True when `output` is sequence-first [S,B,N*h] (or [S*B,N*h], see `regrouped`).
  bool sequence_first = false;
  /// The Reshape ending the chain when it groups the merged axes differently ([S*B, N*h]): it is
  /// kept, to read [B,S,N*h] or [S,B,N*h] elements in the same order.
  const Node* regrouped = nullptr;
  std::vector<const Node*> nodes;  // the chain's nodes but `regrouped`
};

/// `query` needs its projection, layout, rank and head sizes only.
std::optional<MergeChain> MatchMergeChain(const Graph& graph, const Node& pv,
                                          const HeadChain& query);

}  // namespace ort
