// Symbolic shape inference over the IR: every tensor value of a graph (and of its subgraphs) gets
// a shape of DimExpr dimensions where one can be determined, and small integer tensors computed
// from shapes (Shape, Gather, Concat, arithmetic, ...) get their elements as DimExprs too, so that
// passes can prove a Reshape target equal to its input's dimensions or fold shape arithmetic
// (ONNX Runtime's symbolic_shape_infer.py is the model).
//
// Sources: constant initializers give exact shapes and values; graph inputs give their declared
// dims (a dim_param is a symbol, an anonymous unknown a fresh symbol); each node's outputs come
// from its op's rule (shape_rules.h), reconciled with the type the graph already records for them
// (a known number there wins over a symbol; a fresh symbol gives way to a recorded dim_param).
// Nothing here is ever wrong for a valid model at run time: what a rule cannot prove becomes a
// fresh symbol (equal to nothing else) or an unknown rank. The one exception, as in
// symbolic_shape_infer.py: Reshape takes a target size made of input sizes as non-zero when it
// divides the input's size, so at worst an empty tensor's shape is misnamed (rules_shape_ops.cc).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/ir/graph.h"
#include "lib/shape/dim_expr.h"

namespace ort {

/// What is known of one tensor value.
struct TensorFacts {
  /// Dimensions, outermost first; nullopt when the rank is unknown.
  std::optional<std::vector<DimExpr>> shape;
  /// The elements (row-major) of a small int64/int32/bool tensor of rank 0 or 1, when each is
  /// known as an expression (bool as 0/1); nullopt otherwise. Set only with a matching `shape`.
  std::optional<std::vector<DimExpr>> values;
  /// The element type of `values`.
  DataType value_type = DataType::kUndefined;
};

/// The symbol names of one model: those its types use, and fresh ones made for unknown sizes.
class SymbolTable {
 public:
  /// Collects the dim_params of every value type in `root` and its subgraphs.
  explicit SymbolTable(const Graph& root);
  /// A new symbol "unk_<n>" that no type of the model names.
  DimExpr Fresh();
  /// True when `dim` is a single symbol made by Fresh().
  bool IsFresh(const DimExpr& dim) const;
  /// True when a type of the model (when the table was made) uses `name` as a dim_param.
  bool IsModelSymbol(std::string_view name) const;
  /// Marks a symbol as a size of the model's inputs (one the caller chooses, unlike the sizes
  /// data-dependent ops produce).
  void AddInputSize(const DimExpr& dim);
  /// True when `dim` is >= 0 and all its symbols size the model's inputs (4*batch, seq+past).
  bool OnlyInputSizes(const DimExpr& dim) const;

 private:
  std::set<std::string, std::less<>> model_names_;
  std::set<std::string, std::less<>> fresh_;
  std::set<std::string, std::less<>> input_sizes_;
  size_t next_ = 0;
};

/// The symbolic shapes of one graph's values, computed on demand and remembered. The graph must
/// outlive the analysis and may change meanwhile only by edits that keep every value's content
/// (folding a value into a constant, rewiring a node to an equal value).
class SymbolicShapes {
 public:
  /// Analyses `graph`; values it reads from enclosing graphs are analysed there.
  explicit SymbolicShapes(const Graph& graph);
  ~SymbolicShapes();
  SymbolicShapes(const SymbolicShapes&) = delete;
  SymbolicShapes& operator=(const SymbolicShapes&) = delete;

  const Graph& graph() const { return graph_; }
  /// What is known of `value` (empty facts for a non-tensor or unknown value).
  const TensorFacts& Facts(std::string_view value);
  /// The analysis of `subgraph`, a subgraph of one of this graph's nodes (made on first use).
  SymbolicShapes& Subgraph(const Graph& subgraph);
  SymbolTable& symbols() { return *symbols_; }

 private:
  SymbolicShapes(const Graph& graph, SymbolicShapes* parent, std::shared_ptr<SymbolTable> symbols);
  /// Facts of a value no node of this graph produces: a constant, an input, or unknown.
  TensorFacts SourceFacts(const std::string& value);
  /// The facts a recorded type gives (fresh symbols for unknown dims).
  TensorFacts FactsFromType(const std::string& value);
  /// `inferred` made consistent with the type recorded for `value`.
  TensorFacts Reconcile(const std::string& value, TensorFacts inferred);
  void InferNode(const Node& node);

  const Graph& graph_;
  std::unique_ptr<SymbolicShapes> owned_parent_;
  SymbolicShapes* parent_ = nullptr;
  std::shared_ptr<SymbolTable> symbols_;
  std::unordered_map<std::string, TensorFacts> facts_;
  std::map<const Graph*, std::unique_ptr<SymbolicShapes>> subgraphs_;
};

/// `dim` as a declared Dimension: a number for a constant >= 0, the name for a symbol, the
/// canonical spelling for a larger expression; nullopt for a negative constant or when the
/// spelling is a dim_param the model already uses for something else.
std::optional<Dimension> ToDimension(const DimExpr& dim, const SymbolTable& symbols);

}  // namespace ort
