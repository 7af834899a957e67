// SessionState: one graph (the main graph or a subgraph) made executable: its kernels created,
// values numbered into slots, and the sequential execution plan with the point after which each
// intermediate value is released.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/framework/execution_provider.h"
#include "lib/framework/op_kernel.h"
#include "lib/ir/graph.h"

namespace ort {

class SessionState final : public SubgraphRunner, public SubgraphLookup {
 public:
  /// Creates kernels for every node of `graph` (already partitioned) and plans execution.
  /// `providers` maps provider type to provider.
  static Result<std::unique_ptr<SessionState>> Create(
      const Graph& graph, const std::unordered_map<std::string, IExecutionProvider*>& providers);

  // SubgraphRunner
  const Graph& graph() const override { return graph_; }
  const std::vector<std::string>& input_names() const override { return input_names_; }
  const std::vector<std::string>& output_names() const override { return output_names_; }
  const std::vector<std::string>& outer_scope_names() const override { return outer_names_; }
  /// `inputs` align with input_names(); an empty Value for an input backed by an initializer
  /// uses the initializer.
  Status Run(const RunContext& run, std::span<const Value> inputs,
             std::span<const Value* const> outer_scope, std::vector<Value>& outputs) const override;

  // SubgraphLookup
  const SubgraphRunner* Find(const Node& node, std::string_view attribute) const override;

  /// Node execution order.
  const std::vector<const Node*>& execution_order() const { return order_; }

 private:
  struct NodePlan {
    const Node* node = nullptr;
    const OpKernel* kernel = nullptr;
    std::shared_ptr<IAllocator> allocator;
    std::vector<int> inputs;           // slot per input, -1 when omitted
    std::vector<int> implicit_inputs;  // slot per implicit input
    std::vector<int> outputs;          // slot per output (omitted outputs get private slots)
    std::vector<int> release;          // slots whose last reader is this node
  };

  explicit SessionState(const Graph& graph) : graph_(graph) {}
  Status Plan(const std::unordered_map<std::string, IExecutionProvider*>& providers);
  int SlotFor(const std::string& name);
  Status ExecuteNode(const NodePlan& plan, const RunContext& run, std::vector<const Value*>& slots,
                     std::vector<Value>& values) const;

  const Graph& graph_;
  std::vector<std::string> input_names_;
  std::vector<std::string> output_names_;
  std::vector<std::string> outer_names_;
  std::unordered_map<std::string, int> slots_;
  int slot_count_ = 0;
  std::vector<std::pair<int, Value>> constants_;  // slot, initializer value
  std::vector<int> input_slots_;
  std::vector<int> outer_slots_;
  std::vector<int> output_slots_;
  std::vector<const Node*> order_;
  std::vector<NodePlan> plans_;
  std::vector<std::unique_ptr<OpKernel>> kernels_;
  std::map<std::pair<NodeIndex, std::string>, std::unique_ptr<SessionState>, std::less<>>
      subgraphs_;
};

}  // namespace ort
