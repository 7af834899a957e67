// Parsing of Einsum equations ("ij,jk->ik", "...ii->...i", "bij,bjk") into integer labels, with
// ellipsis dimensions given labels of their own (right-aligned across operands).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/tensor_shape.h"

namespace ort {

struct EinsumEquation {
  /// Labels per input, one per dimension (ellipsis expanded). Letters are 0-51; ellipsis dim j
  /// (counted over the widest ellipsis) is kEllipsisBase + j.
  std::vector<std::vector<int>> inputs;
  /// Labels of the output, in order.
  std::vector<int> output;

  static constexpr int kEllipsisBase = 52;
  static constexpr int kLabelCount = kEllipsisBase + 64;
};

/// Parses `equation` for inputs of the given shapes: checks the term count, each term's rank
/// and label syntax, and derives the implicit output (ellipsis dims, then the letters used
/// once, in ASCII order) when there is no "->".
Result<EinsumEquation> ParseEinsumEquation(const std::string& equation,
                                           const std::vector<TensorShape>& shapes);

}  // namespace ort
