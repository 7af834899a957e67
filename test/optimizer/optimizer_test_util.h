// Builds small models for optimizer tests and reads what the optimizer left.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "lib/ir/model.h"
#include "lib/optimizer/graph_optimizer.h"

namespace ort::test {

inline ValueType FloatTensor(std::vector<int64_t> dims) {
  SymbolicShape shape;
  for (int64_t dim : dims) shape.push_back(Dimension::Known(dim));
  return ValueType::Tensor(DataType::kFloat, shape);
}

/// A model importing ai.onnx `opset`, whose graph tests fill in.
inline Model MakeModel(int64_t opset = 14) {
  Model model;
  model.opsets()[""] = opset;
  return model;
}

/// Runs the basic level with only `disabled` turned off.
inline void OptimizeBasic(Model& model, std::set<std::string> disabled = {}) {
  model.graph().ResolveOuterScope();
  const Status status = OptimizeGraph(model, {OptimizationLevel::kBasic, std::move(disabled)}, {});
  INFO(status.ToString());
  REQUIRE(status.ok());
}

/// The op types of the graph's nodes in topological order.
inline std::vector<std::string> OpTypes(const Graph& graph) {
  std::vector<std::string> ops;
  const std::vector<NodeIndex> order = graph.TopologicalOrder().value();
  for (NodeIndex index : order) {
    ops.push_back(graph.GetNode(index)->op_type());
  }
  return ops;
}

using Ops = std::vector<std::string>;

}  // namespace ort::test
