// Helpers of the symbolic shape tests: a small graph builder whose inputs carry symbolic dims,
// and readable spellings of what the analysis infers ("[batch,seq,768]", "?" for a fresh
// symbol or an unknown rank).
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "lib/ir/model.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort::test {

/// A dimension of a test input: a number or a symbol name.
using TestDim = std::variant<int64_t, std::string>;

/// A model of one graph at `opset` (ai.onnx) that tests add inputs and nodes to.
class ShapeGraph {
 public:
  explicit ShapeGraph(int64_t opset = 17);

  Graph& graph() { return model_.graph(); }
  /// Adds a graph input of `type` and `dims`.
  void Input(const std::string& name, std::vector<TestDim> dims, DataType type = DataType::kFloat);
  /// Adds an int64 initializer (1-D, or a scalar when `scalar`).
  void Ints(const std::string& name, std::vector<int64_t> values, bool scalar = false);
  /// Adds a node writing `outputs` (ai.onnx unless `domain`); returns it for attributes.
  Node& Add(const std::string& op, std::vector<std::string> inputs,
            std::vector<std::string> outputs, const std::string& domain = "");
  /// The analysed shape of `value`: "[batch,seq,768]", "?" for a fresh dim, "?" for no rank.
  std::string Shape(const std::string& value);
  /// The analysed elements of `value` in the same spelling, or "none".
  std::string Values(const std::string& value);
  /// A fresh analysis (after edits).
  SymbolicShapes& Analyse();

 private:
  std::string Spell(const std::vector<DimExpr>& dims);

  Model model_;
  std::unique_ptr<SymbolicShapes> shapes_;
};

}  // namespace ort::test
