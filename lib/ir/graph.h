// In-memory graph IR: nodes connected by named values, initializers, typed inputs/outputs and
// subgraphs (If/Loop/Scan bodies) that read values of their enclosing graphs. Every edit goes
// through Graph so that producer/consumer indexes stay exact.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/attribute.h"
#include "lib/ir/tensor.h"
#include "lib/ir/value_type.h"

namespace ort {

class Graph;
using NodeIndex = size_t;
/// Opset version per domain ("" is ai.onnx). Shared by a model's main graph and subgraphs.
using OpsetMap = std::map<std::string, int64_t>;

inline constexpr std::string_view kOnnxDomain = "";
inline constexpr std::string_view kMsDomain = "com.microsoft";

/// A named value with its static type.
struct ValueInfo {
  std::string name;
  ValueType type;
  std::string doc_string;
};

class Node {
 public:
  NodeIndex index() const { return index_; }
  const std::string& name() const { return name_; }
  const std::string& op_type() const { return op_type_; }
  /// "" for ai.onnx (also normalized from "ai.onnx").
  const std::string& domain() const { return domain_; }

  /// Input value names; "" marks an omitted optional input.
  const std::vector<std::string>& inputs() const { return inputs_; }
  /// Output value names; "" marks an omitted optional output.
  const std::vector<std::string>& outputs() const { return outputs_; }
  /// Values of enclosing scopes read by this node's subgraphs (set by ResolveOuterScope).
  const std::vector<std::string>& implicit_inputs() const { return implicit_inputs_; }
  bool HasInput(size_t i) const { return i < inputs_.size() && !inputs_[i].empty(); }
  bool HasOutput(size_t i) const { return i < outputs_.size() && !outputs_[i].empty(); }

  const std::map<std::string, Attribute>& attributes() const { return attributes_; }
  const Attribute* FindAttribute(std::string_view name) const;
  Attribute* MutableAttribute(std::string_view name);
  /// Adds or replaces an attribute; a subgraph it holds becomes a child of this node's graph.
  void SetAttribute(Attribute attribute);
  bool RemoveAttribute(std::string_view name);
  /// Subgraphs held by this node's attributes, in attribute-name order.
  std::vector<Graph*> Subgraphs() const;

  /// The opset version of the schema this node follows (-1 until resolved).
  int since_version() const { return since_version_; }
  void set_since_version(int version) { since_version_ = version; }
  /// The execution provider assigned by partitioning ("" before).
  const std::string& provider() const { return provider_; }
  void set_provider(std::string provider) { provider_ = std::move(provider); }
  const std::string& doc_string() const { return doc_string_; }
  void set_doc_string(std::string doc) { doc_string_ = std::move(doc); }

  Graph& graph() const { return *graph_; }
  /// "node 'conv1' (Conv)" / "node 'fc' (com.microsoft:FusedMatMul)" for messages.
  std::string Describe() const;

 private:
  friend class Graph;
  Node() = default;

  NodeIndex index_ = 0;
  std::string name_;
  std::string op_type_;
  std::string domain_;
  std::vector<std::string> inputs_;
  std::vector<std::string> outputs_;
  std::vector<std::string> implicit_inputs_;
  std::map<std::string, Attribute> attributes_;
  int since_version_ = -1;
  std::string provider_;
  std::string doc_string_;
  Graph* graph_ = nullptr;
};

/// Everything needed to add a node.
struct NodeSpec {
  std::string name;
  std::string op_type;
  std::string domain;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<Attribute> attributes;
};

class Graph {
 public:
  explicit Graph(std::shared_ptr<OpsetMap> opsets);
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  const std::string& doc_string() const { return doc_string_; }
  void set_doc_string(std::string doc) { doc_string_ = std::move(doc); }

  // ---- snapshots (graph_clone.cc) -----------------------------------------------------------
  /// A deep copy: nodes at the same indices (removed ones stay removed), attributes and
  /// subgraphs, value infos, inputs, outputs, the name counter. Initializers and tensor
  /// attributes share their buffers with this graph's (Tensor copies are shallow), so copying a
  /// model with large weights costs no weight memory. The copy shares this graph's opsets and
  /// has no parent.
  std::unique_ptr<Graph> Clone() const;
  /// Replaces everything Clone() copies with `snapshot`'s (a Clone() of this graph taken
  /// earlier), keeping this graph's identity, parent and opsets: references to the graph stay
  /// valid, pointers to its nodes and subgraphs do not.
  void RestoreFrom(std::unique_ptr<Graph> snapshot);

  // ---- opsets -------------------------------------------------------------------------------
  const OpsetMap& opsets() const { return *opsets_; }
  OpsetMap& mutable_opsets() { return *opsets_; }
  const std::shared_ptr<OpsetMap>& shared_opsets() const { return opsets_; }
  /// The imported opset version of `domain` (ai.onnx for ""), or -1 when not imported.
  int64_t OpsetVersion(std::string_view domain) const;

  // ---- nodes --------------------------------------------------------------------------------
  Node& AddNode(NodeSpec spec);
  /// Removes a node; its outputs lose their producer. Removing a removed node is a no-op.
  void RemoveNode(NodeIndex index);
  Node* GetNode(NodeIndex index);
  const Node* GetNode(NodeIndex index) const;
  /// Upper bound (exclusive) of node indices; removed indices stay unused.
  size_t MaxNodeIndex() const { return nodes_.size(); }
  size_t NodeCount() const { return node_count_; }
  /// Live nodes in index order.
  std::vector<Node*> Nodes();
  std::vector<const Node*> Nodes() const;

  /// Rewires input `input_index` of `node` (growing the input list when needed).
  void SetNodeInput(Node& node, size_t input_index, std::string value);
  /// Renames output `output_index` of `node`.
  void SetNodeOutput(Node& node, size_t output_index, std::string value);
  /// Makes every consumer of `from` (nodes, implicit inputs and the subgraphs reading them, graph
  /// outputs) read `to` instead.
  void ReplaceAllUses(const std::string& from, const std::string& to);

  /// The node producing `value`, or nullptr (graph input, initializer, outer scope).
  Node* Producer(std::string_view value);
  const Node* Producer(std::string_view value) const;
  /// Nodes reading `value` (as an input or implicit input), in no particular order.
  std::vector<Node*> Consumers(std::string_view value);
  std::vector<const Node*> Consumers(std::string_view value) const;
  /// True when `value` is a graph output of this graph.
  bool IsGraphOutput(std::string_view value) const;

  /// Nodes ordered so every producer precedes its consumers; the original order is kept where
  /// it already satisfies that. Errors on a cycle, naming a node on it.
  Result<std::vector<NodeIndex>> TopologicalOrder() const;

  // ---- values -------------------------------------------------------------------------------
  const std::vector<std::string>& inputs() const { return inputs_; }
  const std::vector<std::string>& outputs() const { return outputs_; }
  void set_inputs(std::vector<std::string> inputs) { inputs_ = std::move(inputs); }
  void set_outputs(std::vector<std::string> outputs) { outputs_ = std::move(outputs); }
  /// Graph inputs that are not initializers (those the caller must or may feed).
  std::vector<std::string> InputsWithoutInitializers() const;

  const ValueInfo* FindValueInfo(std::string_view name) const;
  /// Records (or replaces) the type of `name`.
  void SetValueType(const std::string& name, ValueType type);
  /// The type of `name` here or in an enclosing scope; nullptr when unknown.
  const ValueType* FindTypeInScope(std::string_view name) const;
  const std::unordered_map<std::string, ValueInfo>& value_infos() const { return value_infos_; }
  void RemoveValueInfo(std::string_view name);

  /// A value name not used anywhere in this graph, starting with `prefix`.
  std::string UniqueValueName(std::string_view prefix);
  /// A node name not used in this graph, starting with `prefix`.
  std::string UniqueNodeName(std::string_view prefix);

  // ---- initializers -------------------------------------------------------------------------
  const std::map<std::string, Tensor>& initializers() const { return initializers_; }
  const Tensor* GetInitializer(std::string_view name) const;
  /// An initializer that no feed can override (not also a graph input), searching enclosing
  /// scopes when `search_outer_scope`.
  const Tensor* GetConstantInitializer(std::string_view name, bool search_outer_scope) const;
  /// Adds or replaces an initializer and records its type.
  void AddInitializer(const std::string& name, Tensor tensor);
  void RemoveInitializer(std::string_view name);

  // ---- scopes -------------------------------------------------------------------------------
  Graph* parent_graph() const { return parent_graph_; }
  Node* parent_node() const { return parent_node_; }
  /// Values this graph reads from enclosing scopes (set by ResolveOuterScope).
  const std::vector<std::string>& outer_scope_values() const { return outer_scope_values_; }
  /// True when `name` is produced, fed or initialized in this graph itself.
  bool DefinesValue(std::string_view name) const;
  /// Recomputes, bottom-up through subgraphs, each graph's outer-scope values and each
  /// subgraph-holding node's implicit inputs.
  void ResolveOuterScope();

 private:
  friend class Node;
  void IndexNodeEdges(const Node& node);
  void UnindexNodeEdges(const Node& node);
  void AddConsumer(const std::string& value, NodeIndex index);
  void RemoveConsumer(const std::string& value, NodeIndex index);
  void AdoptSubgraph(Graph& subgraph, Node& owner);

  std::string name_;
  std::string doc_string_;
  std::shared_ptr<OpsetMap> opsets_;
  std::vector<std::unique_ptr<Node>> nodes_;
  size_t node_count_ = 0;
  std::vector<std::string> inputs_;
  std::vector<std::string> outputs_;
  std::unordered_map<std::string, ValueInfo> value_infos_;
  std::map<std::string, Tensor> initializers_;
  std::unordered_map<std::string, NodeIndex> producers_;
  std::unordered_map<std::string, std::vector<NodeIndex>> consumers_;
  std::vector<std::string> outer_scope_values_;
  Graph* parent_graph_ = nullptr;
  Node* parent_node_ = nullptr;
  size_t name_counter_ = 0;
};

}  // namespace ort
