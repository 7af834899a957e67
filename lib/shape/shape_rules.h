// The per-op rules of symbolic shape inference (symbolic_shapes.h): each reads what is known of a
// node's inputs through a RuleContext and sets what it can prove of the outputs. A rule checks
// every input it reads (present, rank, constant) first and sets nothing it cannot prove; outputs
// it leaves unset keep only what the graph's recorded types say.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "lib/shape/symbolic_shapes.h"

namespace ort {

/// A rule's view of one node.
class RuleContext {
 public:
  RuleContext(SymbolicShapes& analysis, const Node& node);

  const Node& node() const { return node_; }
  /// The ai.onnx opset of the node's graph.
  int64_t opset() const { return opset_; }
  size_t input_count() const { return node_.inputs().size(); }

  /// What is known of input `i`; nullptr when it is absent.
  const TensorFacts* Input(size_t i) const;
  /// The shape of input `i` when it is present and of known rank.
  const std::vector<DimExpr>* Shape(size_t i) const;
  /// The elements of input `i` when known (small integer tensors only).
  const std::vector<DimExpr>* Values(size_t i) const;
  /// The elements of input `i` when every one is a known number.
  std::optional<std::vector<int64_t>> Ints(size_t i) const;

  /// Input `i` when it is a constant initializer (of this graph or an enclosing one).
  const Tensor* ConstantInput(size_t i) const;
  /// A string attribute, or `fallback` when absent.
  std::string StringAttribute(std::string_view name, std::string_view fallback) const;
  /// An int attribute, or `fallback` when absent.
  int64_t IntAttribute(std::string_view name, int64_t fallback) const;
  /// An ints attribute, or nullopt when absent.
  std::optional<std::vector<int64_t>> IntsAttribute(std::string_view name) const;

  const SymbolTable& symbols() { return analysis_.symbols(); }
  /// A new symbol equal to nothing else: a dimension nothing is known about.
  DimExpr Fresh() { return analysis_.symbols().Fresh(); }
  /// `dim` when set, else a fresh symbol.
  DimExpr OrFresh(const std::optional<DimExpr>& dim) { return dim ? *dim : Fresh(); }

  /// Sets the shape of output `i` (ignored when the node has no such output).
  void SetShape(size_t i, std::vector<DimExpr> shape);
  /// Sets the shape of output `i` to a 1-D (or scalar) tensor holding `values` of `type`.
  void SetValues(size_t i, std::vector<DimExpr> values, DataType type, bool scalar = false);
  /// Copies input `from`'s shape (and values) to output `to`.
  void CopyInput(size_t from, size_t to, bool with_values = false);

  /// The facts of `subgraph`'s output `i` (the subgraph held by this node's attribute).
  const TensorFacts& SubgraphOutput(const Graph& subgraph, size_t i);

  std::vector<TensorFacts>& outputs() { return outputs_; }

 private:
  SymbolicShapes& analysis_;
  const Node& node_;
  int64_t opset_;
  std::vector<TensorFacts> outputs_;
};

using ShapeRule = void (*)(RuleContext&);

/// The rule for (domain, op_type), or nullptr.
ShapeRule FindShapeRule(std::string_view domain, std::string_view op_type);

// ---- helpers shared by the rule files ---------------------------------------------------------

/// Up to this many elements of an integer tensor are tracked as values.
inline constexpr size_t kMaxTrackedValues = 64;

/// The elements of a small int64/int32/bool tensor of rank 0 or 1 (bool as 0/1), else nullopt.
std::optional<std::vector<DimExpr>> TensorValues(const Tensor& tensor);
/// `axis` in [0, rank) from [-rank, rank), or in [0, rank] from [-rank, rank] when `inclusive`
/// (Flatten's split point).
std::optional<size_t> ResolveAxis(int64_t axis, size_t rank, bool inclusive = false);
/// The numpy broadcast of two dimensions when provable: equal dims, a 1 on either side, or a
/// number other than 1 on one side (the other must then be that number or 1), or x against
/// min(x, c) with c >= 1 (x either way).
std::optional<DimExpr> BroadcastDim(const DimExpr& a, const DimExpr& b);
/// The numpy broadcast of shapes, with a fresh symbol where a dimension is not provable.
std::optional<std::vector<DimExpr>> BroadcastShapes(
    RuleContext& context, const std::vector<std::vector<DimExpr>>& shapes);
/// Of dims that a valid model makes equal (Concat's other axes, MatMul's K), the most telling one:
/// a number, else a symbol that is not fresh, else the first. `dims` must not be empty.
DimExpr PickEqual(const SymbolTable& symbols, const std::vector<DimExpr>& dims);

/// MatMul of inputs 0 and 1 (numpy semantics), optionally with either's last two axes swapped.
void InferMatMul(RuleContext& context, bool transpose_a, bool transpose_b);
/// Gemm of 2-D inputs 0 and 1 with the transA/transB attributes.
void InferGemm(RuleContext& context);
/// Conv of input 0 with weights input 1 (strides, pads, dilations, auto_pad attributes).
void InferConv(RuleContext& context);
/// Sets `outputs` to the shape of per-row statistics of a normalization of `input` over the axes
/// from `axis` on: input's leading dims, then 1s.
void SetNormStatistics(RuleContext& context, const std::vector<DimExpr>& input, size_t axis,
                       std::initializer_list<size_t> outputs);

/// Registration of each rule file's rules.
struct RuleRegistry;
void AddElementwiseRules(RuleRegistry& registry);
void AddShapeOpRules(RuleRegistry& registry);
void AddTensorOpRules(RuleRegistry& registry);
void AddNnRules(RuleRegistry& registry);
void AddContribRules(RuleRegistry& registry);

struct RuleRegistry {
  /// Registers `rule` for each op of `ops` in `domain`.
  void Add(std::string_view domain, std::initializer_list<std::string_view> ops, ShapeRule rule);
  std::vector<std::tuple<std::string, std::string, ShapeRule>> entries;
};

}  // namespace ort
