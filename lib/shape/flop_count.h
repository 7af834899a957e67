// The arithmetic a model does at given input sizes, as tools report it: 2 FLOPs per
// multiply-add of its Conv, ConvTranspose, Gemm and MatMul-like nodes (float and 8-bit forms),
// which dominate every network these run; other ops are not counted.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "lib/ir/graph.h"

namespace ort {

struct FlopCount {
  /// FLOPs per op type ("domain:op" outside ai.onnx) of the nodes whose sizes are known.
  std::map<std::string, double> by_op_type;
  double total = 0;
  /// Nodes of counted types whose output or weight sizes are not known at these sizes.
  int64_t unknown_nodes = 0;
};

/// Counts `graph` and its subgraphs (a loop body once) with each symbolic dimension named in
/// `sizes` set to its value; sizes that depend on anything else leave their node unknown.
FlopCount CountFlops(const Graph& graph, const std::map<std::string, int64_t>& sizes);

}  // namespace ort
