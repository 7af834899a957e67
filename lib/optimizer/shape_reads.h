// Reads of a tensor's shape that must outlive the tensor: a fusion that removes a tensor (the
// attention scores a fused kernel no longer writes, head transposes it no longer needs) rewrites
// the Shape nodes reading it (directly or through Slice / Transpose) into the same int64 values
// built from tensors that stay (the fused node's inputs), with every element proven equal by
// symbolic shape inference (lib/shape).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/ir/graph.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {

/// One element of a shape value: a constant, dimension `axis` of `anchor`, or that dimension
/// clamped to at most `bound` (a Slice [0, bound) of a symbolic dimension: min(dim, bound)).
struct ShapeElementSource {
  std::optional<int64_t> constant;
  std::string anchor;
  int64_t axis = 0;
  std::optional<int64_t> bound;
  /// The dimension (when not constant), as symbolic inference knows it.
  DimExpr dim;
};

/// The elements of Shape(`value`) in terms of `anchors`: from its proven dimensions, or, for a
/// dimension inference could not tell, through a Slice [0, e) step 1 of a value whose dimension
/// it can; nullopt when some element has no source.
std::optional<std::vector<ShapeElementSource>> ShapeSources(
    const Graph& graph, SymbolicShapes& shapes, const std::string& value,
    const std::vector<std::string>& anchors);

/// The rewrite of every read of some values outside a fused set.
struct ShapeReads {
  /// A value to replace (a Shape output, or a Gather of one) and its elements; `scalar` for a
  /// rank-0 value.
  struct Target {
    std::string value;
    std::vector<ShapeElementSource> elements;
    bool scalar = false;
  };
  std::vector<Target> targets;
  /// The nodes between the values and the targets (Slice, Transpose, Shape, Gather), removed
  /// once unused, in this order.
  std::vector<const Node*> chain;
  /// The readers of the values themselves (the heads of the chains).
  std::vector<const Node*> readers;
};

/// Plans the rewrite of the readers of `values` other than `fused`: each must lead only to Shape
/// nodes through Slice and Transpose, and every element those read must have a source among
/// `anchors`. nullopt when one does not (a reader that needs the data, or an unproven element).
std::optional<ShapeReads> PlanShapeReads(const Graph& graph, SymbolicShapes& shapes,
                                         const std::vector<std::string>& values,
                                         const std::vector<const Node*>& fused,
                                         const std::vector<std::string>& anchors);

/// Builds each target's value from its anchors (Shape, Gather, Min, Concat and int64
/// constants), makes the target's readers read it, and removes the chain.
void ApplyShapeReads(Graph& graph, const ShapeReads& reads);

/// Removes each of `nodes`, in order, once nothing reads it, first rewriting readers that read
/// only its shape (PlanShapeReads over `anchors`); a node whose data is still read stays.
void RemoveUnlessDataRead(Graph& graph, const std::vector<const Node*>& nodes,
                          const std::vector<std::string>& anchors);

}  // namespace ort
