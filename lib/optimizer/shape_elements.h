// What the elements of a small int64 shape tensor hold when it is computed from Shape, Gather,
// Slice, Unsqueeze, Squeeze and Concat (the chains exporters write for x.view(x.size(0), ...)):
// a known number, a dimension of some tensor, or nothing known. The attention fusions read the
// Reshape targets and mask slices they must prove with it; lib/shape's symbolic analysis, which
// folds such chains into constants beforehand, is the general tool and should replace it there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

struct ShapeElement {
  enum class Kind { kValue, kDim, kUnknown };
  Kind kind = Kind::kUnknown;
  /// kValue: the element's value.
  int64_t value = 0;
  /// kDim: the element is dimension `axis` (non-negative) of `tensor`, not statically known.
  std::string tensor;
  int64_t axis = 0;
};

/// The elements of an int64 tensor of rank 0 (`scalar`) or 1.
struct ShapeElements {
  std::vector<ShapeElement> elements;
  bool scalar = false;
};

/// The elements of `value`, with dimensions that inferred types know resolved to kValue; nullopt
/// when `value` is not an int64 tensor of rank 0 or 1 of known length.
std::optional<ShapeElements> AnalyzeShapeValue(const Graph& graph, std::string_view value);

}  // namespace ort
