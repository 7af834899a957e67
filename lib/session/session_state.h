// SessionState: one graph (the main graph or a subgraph) made executable: its kernels created,
// values numbered into slots, the sequential execution plan with the point after which each
// intermediate value is released, the allocation plan (buffer sharing, in-place outputs, memory
// patterns by input shapes) and, for parallel mode, each node's dependencies.
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
#include "lib/memory/allocation_planner.h"
#include "lib/session/run_memory.h"

namespace ort {

class Profiler;

/// How a SessionState executes its graph.
struct ExecutionPlanOptions {
  /// Lays out a run's intermediate tensors in one block per device, computed from an earlier
  /// run with the same input shapes. Sequential runs only.
  bool memory_pattern = true;
  /// Runs independent nodes concurrently on RunContext::inter_op_pool. Applies to this graph
  /// only; subgraphs run sequentially inside their node.
  bool parallel = false;
  /// Drops constants that every reader pre-packed (OpKernel::PrePackedInput) and lists them in
  /// SessionState::released_constants(), so the owner of the graph can free them too. Applies to
  /// this graph only.
  bool release_prepacked = false;
};

class SessionState final : public SubgraphRunner, public SubgraphLookup {
 public:
  /// Creates kernels for every node of `graph` (already partitioned over `providers`) and plans
  /// execution. `profiler`, when given, times kernel creation (weight prepacking included) and
  /// planning.
  static Result<std::unique_ptr<SessionState>> Create(
      const Graph& graph, std::span<IExecutionProvider* const> providers,
      ExecutionPlanOptions options = {}, Profiler* profiler = nullptr);

  // SubgraphRunner
  const Graph& graph() const override { return graph_; }
  /// Initializers dropped because their readers pre-packed them (release_prepacked).
  const std::vector<std::string>& released_constants() const { return released_constants_; }
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
  /// The allocation plan over this graph's slots (value id = slot).
  const AllocationPlan& allocation_plan() const { return allocation_plan_; }
  /// Memory patterns computed so far (one per distinct set of input shapes).
  size_t MemoryPatternCount() const { return patterns_.size(); }

 private:
  struct NodePlan {
    const Node* node = nullptr;
    const OpKernel* kernel = nullptr;
    const IExecutionProvider* provider = nullptr;
    std::shared_ptr<IAllocator> allocator;
    // Per output: the provider's allocator, or the CPU's for outputs the kernel makes on the host.
    std::vector<std::shared_ptr<IAllocator>> output_allocators;
    std::vector<int> inputs;           // slot per input, -1 when omitted
    std::vector<int> implicit_inputs;  // slot per implicit input
    std::vector<int> outputs;          // slot per output (omitted outputs get private slots)
    std::vector<int> release;          // slots whose last reader is this node
    std::vector<std::pair<int, int>> in_place_candidates;  // from the kernel's definition
    std::vector<std::pair<int, int>> aliases;              // likewise
    NodeMemoryPlan memory;
    // Parallel mode: nodes reading this one's outputs, how many distinct nodes this one waits
    // for, and the distinct slots it reads.
    std::vector<size_t> consumers;
    int producer_count = 0;
    std::vector<int> read_slots;
  };

  SessionState(const Graph& graph, ExecutionPlanOptions options)
      : graph_(graph), options_(options) {}
  Status CreateKernels(std::span<IExecutionProvider* const> providers);
  Status PlanReleases();
  void ReleasePrePackedConstants();
  Status PlanMemory();
  void PlanDependencies();
  int SlotFor(const std::string& name);
  /// Runs one node, reading and writing `slots`/`values`; `memory` places its outputs.
  Status ExecuteNode(const NodePlan& plan, const RunContext& run, std::vector<const Value*>& slots,
                     std::vector<Value>& values, RunMemory* memory) const;
  Status RunSequential(const RunContext& run, std::span<const Value> inputs,
                       std::span<const Value* const> outer_scope, std::vector<const Value*>& slots,
                       std::vector<Value>& values) const;
  /// Runs nodes as their inputs become ready on the inter-op pool (parallel_execution.cc).
  Status RunParallel(const RunContext& run, std::vector<const Value*>& slots,
                     std::vector<Value>& values) const;

  const Graph& graph_;
  ExecutionPlanOptions options_;
  std::vector<std::string> input_names_;
  std::vector<std::string> output_names_;
  std::vector<std::string> outer_names_;
  std::unordered_map<std::string, int> slots_;
  int slot_count_ = 0;
  std::vector<std::pair<int, Value>> constants_;  // slot, initializer value
  std::vector<std::string> released_constants_;
  std::vector<int> input_slots_;
  std::vector<int> outer_slots_;
  std::vector<int> output_slots_;
  std::vector<const Node*> order_;
  std::vector<NodePlan> plans_;
  std::vector<bool> kept_;          // by slot: feeds, outputs, outer scope, constants
  std::vector<int> reader_counts_;  // by slot: distinct nodes reading it
  AllocationPlan allocation_plan_;
  std::vector<std::shared_ptr<IAllocator>> allocators_;  // one per device nodes allocate on
  mutable MemoryPatternCache patterns_;
  std::vector<std::unique_ptr<OpKernel>> kernels_;
  std::map<std::pair<NodeIndex, std::string>, std::unique_ptr<SessionState>, std::less<>>
      subgraphs_;
};

}  // namespace ort
