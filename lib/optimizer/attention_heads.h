// The head layout of the attention blocks exporters write, shared by the attention fusions:
// a projected [B,L,N*h] tensor viewed as N heads (Reshape to [B,L,N,h], Transpose), the heads
// merged back (Transpose, Reshape to [B,S,N*h]), and the scalar factors scaling the scores.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ir/graph.h"
#include "lib/optimizer/shape_elements.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {

/// The producer of `value` when it is the ai.onnx op `op_type` writing it as output 0, `value` is
/// no graph output, and `readers` are all the nodes reading it.
const Node* ProducerReadOnlyBy(const Graph& graph, const std::string& value,
                               std::string_view op_type, const std::vector<const Node*>& readers);

/// value = input * c or input / c with c a finite nonzero scalar constant, the producer read by
/// `readers` only: the producer, with `scale` multiplied by the factor and `input` set.
const Node* MatchScalarFactor(const Graph& graph, const std::string& value,
                              const std::vector<const Node*>& readers, float& scale,
                              std::string& input);

/// True for N heads of h values each that a fused attention can hold: both positive and N*h (the
/// hidden width, tripled when packed) far from int64 overflow, whatever a Reshape target says.
bool PlausibleHeads(int64_t heads, int64_t head_size);

/// `value` = Transpose(perm)(Reshape(projected, [B,L,N,h])), scalar factors allowed before and
/// after each step (each read once).
struct HeadSplit {
  /// The 3-D [B,L,N*h] tensor split into heads.
  std::string projected;
  int64_t heads = 0, head_size = 0;
  float scale = 1;
  /// The first two elements of the Reshape target, and the values whose first two dimensions
  /// are projected's [B,L] (which those elements may read through Shape).
  std::vector<ShapeElement> leading;
  std::vector<std::string> batch_sequence_values;
  /// The Transpose, the Reshape and the factors.
  std::vector<const Node*> nodes;
  /// Steps that others read too (only when matched `shared`): the fused node leaves them, and
  /// they go once nothing reads them (RemoveIfUnused, in this order).
  std::vector<const Node*> kept;
  /// Only from a chain (head_layout.h): `projected` is [L,B,N*h], and the heads are [B*N,..]
  /// when rank is 3. `leading` is then two 0s: the chain proved [B,L] kept.
  bool sequence_first = false;
  size_t rank = 4;
};

/// With `shared`, the Transpose's and the Reshape's outputs may have other readers (a causal
/// mask's sequence length, a transpose merged into a copy) and no factor is taken: the steps
/// read elsewhere go to `kept` instead of `nodes`. With `chains` (not shared), any chain of
/// Reshapes and Transposes head_layout.h proves is taken too, sequence-first and [B*N,..] ones
/// included.
std::optional<HeadSplit> MatchHeadSplit(const Graph& graph, const std::string& value,
                                        std::initializer_list<int64_t> perm, bool shared = false,
                                        bool chains = false);

/// True when the first two elements of a Reshape target keep [B,S], the first two dimensions of
/// `x` and of the values in `same`: each is 0, x's static dimension, or the dimension read
/// through Shape (of those values, or of a tensor whose dimension the types prove equal); one
/// of them may be -1 when the other is kept. Where the recorded types cannot tell, symbolic
/// inference may (`shapes`, an analysis of `graph`, or one made here when null).
bool KeepsBatchAndSequence(const Graph& graph, const std::vector<ShapeElement>& leading,
                           const std::vector<std::string>& same, const std::string& x,
                           SymbolicShapes* shapes = nullptr);

/// MatMul(probs, v) [B,N,S,h] -> Transpose(0,2,1,3) -> Reshape [B,S,N*h]: the heads merged back.
/// When several Reshapes read the Transpose (a copy a flatten was merged into), the fused node
/// writes a new [B,S,N*h] value and those Reshapes read it instead (`rewired`): they see the same
/// elements in the same order.
struct HeadMerge {
  /// The value the fused node writes.
  std::string output;
  std::vector<const Node*> nodes;  // the Transpose, and the Reshape when it writes `output`
  std::vector<const Node*> rewired;
  std::vector<ShapeElement> target;  // the single Reshape's target; empty when rewired
  /// The Transpose's output, whose first two dimensions are [B,S].
  std::vector<std::string> batch_sequence_values;
  /// Only from a chain (head_layout.h): proven [B,S,N*h], or, `sequence_first`, [S,B,N*h]
  /// (for the rewired Reshape, its elements in that order).
  bool proven = false;
  bool sequence_first = false;

  /// True when the output is [B,S,hidden]: rewired, or the Reshape target is [B,S,hidden] with
  /// [B,S] kept (KeepsBatchAndSequence) and the last element `hidden` or -1.
  bool Keeps(const Graph& graph, int64_t hidden, const std::vector<std::string>& same,
             const std::string& x) const;
};

/// The merge reading `pv`'s output; nullopt for anything else. A new output name is taken from
/// `graph` when Reshapes are to be rewired. With `query` (the query heads, as matched), a chain
/// that head_layout.h proves is taken too.
std::optional<HeadMerge> MatchHeadMerge(const Graph& graph, const Node& pv,
                                        const HeadSplit* query = nullptr);

/// Makes the rewired Reshapes read the fused node's output (after the fused node replaced the
/// matched ones).
void RewireMerge(Graph& graph, const HeadMerge& merge);

}  // namespace ort
