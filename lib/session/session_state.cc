#include "lib/session/session_state.h"

#include <exception>
#include <new>
#include <unordered_set>

#include "lib/profiler/node_profile.h"

namespace ort {
namespace {

// Kernels must not throw, but a throw must not escape the library either.
Status Compute(const OpKernel& kernel, KernelContext& context) {
  try {
    return kernel.Compute(context);
  } catch (const std::bad_alloc&) {
    return ORT_ERROR(kOutOfMemory, "out of memory");
  } catch (const std::exception& error) {
    return ORT_ERROR(kRuntimeError, "unexpected error: {}", error.what());
  }
}

// The profiled path: times Compute and counts the node's parallel work on the intra-op pool.
Status ComputeProfiled(const OpKernel& kernel, KernelContext& context,
                       std::span<const Value* const> inputs, std::span<Value* const> outputs) {
  const RunContext& run = context.run();
  const ThreadPool* pool = run.intra_op_pool;
  ParallelStats stats(pool != nullptr ? pool->DegreeOfParallelism() : 1);
  Status status;
  const auto start = Profiler::Clock::now();
  {
    ScopedParallelStats scope(&stats);
    status = Compute(kernel, context);
  }
  const auto end = Profiler::Clock::now();
  if (status.ok()) {
    RecordNodeEvent(*run.profiler, {&context.node(), inputs, outputs, pool, &stats, start, end});
  }
  return status;
}

}  // namespace

Result<std::unique_ptr<SessionState>> SessionState::Create(
    const Graph& graph, const std::unordered_map<std::string, IExecutionProvider*>& providers) {
  std::unique_ptr<SessionState> state(new SessionState(graph));
  ORT_RETURN_IF_ERROR(state->Plan(providers));
  return state;
}

int SessionState::SlotFor(const std::string& name) {
  auto [it, inserted] = slots_.emplace(name, slot_count_);
  if (inserted) ++slot_count_;
  return it->second;
}

Status SessionState::Plan(const std::unordered_map<std::string, IExecutionProvider*>& providers) {
  input_names_ = graph_.inputs();
  output_names_ = graph_.outputs();
  outer_names_ = graph_.outer_scope_values();
  for (const auto& name : input_names_) input_slots_.push_back(SlotFor(name));
  for (const auto& name : outer_names_) outer_slots_.push_back(SlotFor(name));
  for (const auto& [name, tensor] : graph_.initializers()) {
    constants_.emplace_back(SlotFor(name), Value(tensor));
  }

  ORT_ASSIGN_OR_RETURN(std::vector<NodeIndex> order, graph_.TopologicalOrder());
  std::unordered_map<int, size_t> last_reader;
  for (NodeIndex index : order) {
    const Node& node = *graph_.GetNode(index);
    auto provider_it = providers.find(node.provider());
    if (provider_it == providers.end()) {
      return ORT_ERROR(kInvalidArgument, "{} is assigned to unknown provider '{}'", node.Describe(),
                       node.provider());
    }
    IExecutionProvider& provider = *provider_it->second;
    for (const auto& [name, attribute] : node.attributes()) {
      if (!attribute.g) continue;
      auto sub = SessionState::Create(*attribute.g, providers);
      if (!sub.ok()) return sub.status().WithContext(node.Describe() + " attribute '" + name + "'");
      subgraphs_[{index, name}] = std::move(sub).value();
    }
    std::string why_not;
    const KernelEntry* entry = provider.kernel_registry().Find(node, &why_not);
    if (entry == nullptr) {
      return ORT_ERROR(kNotImplemented, "{}: provider {} has no kernel for it ({})",
                       node.Describe(), provider.type(), why_not);
    }
    KernelInfo info(node, provider, this);
    auto kernel = entry->factory(info);
    if (!kernel.ok()) {
      const std::string& message = kernel.status().message();
      if (message.find(node.Describe()) != std::string::npos) return kernel.status();
      return kernel.status().WithContext(node.Describe());
    }

    NodePlan plan;
    plan.node = &node;
    plan.kernel = kernel->get();
    plan.allocator = provider.allocator();
    for (const auto& input : node.inputs())
      plan.inputs.push_back(input.empty() ? -1 : SlotFor(input));
    for (const auto& input : node.implicit_inputs()) plan.implicit_inputs.push_back(SlotFor(input));
    for (const auto& output : node.outputs()) {
      // Omitted optional outputs still get a slot so kernels may write them unconditionally.
      plan.outputs.push_back(output.empty() ? slot_count_++ : SlotFor(output));
    }
    for (int slot : plan.inputs) {
      if (slot >= 0) last_reader[slot] = plans_.size();
    }
    for (int slot : plan.implicit_inputs) last_reader[slot] = plans_.size();
    for (int slot : plan.outputs) last_reader.try_emplace(slot, plans_.size());
    kernels_.push_back(std::move(kernel).value());
    order_.push_back(&node);
    plans_.push_back(std::move(plan));
  }
  for (const auto& name : output_names_) output_slots_.push_back(SlotFor(name));

  // Values the run must keep (outputs, feeds, outer scope, constants) are never released.
  std::unordered_set<int> kept(output_slots_.begin(), output_slots_.end());
  kept.insert(input_slots_.begin(), input_slots_.end());
  kept.insert(outer_slots_.begin(), outer_slots_.end());
  for (const auto& [slot, value] : constants_) kept.insert(slot);
  for (const auto& [slot, reader] : last_reader) {
    if (!kept.count(slot)) plans_[reader].release.push_back(slot);
  }
  return Status::OK();
}

const SubgraphRunner* SessionState::Find(const Node& node, std::string_view attribute) const {
  auto it = subgraphs_.find(std::make_pair(node.index(), std::string(attribute)));
  return it == subgraphs_.end() ? nullptr : it->second.get();
}

Status SessionState::ExecuteNode(const NodePlan& plan, const RunContext& run,
                                 std::vector<const Value*>& slots,
                                 std::vector<Value>& values) const {
  const Node& node = *plan.node;
  std::vector<const Value*> inputs(plan.inputs.size(), nullptr);
  for (size_t i = 0; i < plan.inputs.size(); ++i) {
    const int slot = plan.inputs[i];
    if (slot < 0) continue;
    inputs[i] = slots[slot];
    if (inputs[i] == nullptr) {
      return ORT_ERROR(kRuntimeError, "{}: input '{}' has no value", node.Describe(),
                       node.inputs()[i]);
    }
  }
  std::vector<const Value*> implicit(plan.implicit_inputs.size());
  for (size_t i = 0; i < plan.implicit_inputs.size(); ++i) {
    implicit[i] = slots[plan.implicit_inputs[i]];
    if (implicit[i] == nullptr) {
      return ORT_ERROR(kRuntimeError, "{}: outer-scope value '{}' has no value", node.Describe(),
                       node.implicit_inputs()[i]);
    }
  }
  std::vector<Value*> outputs(plan.outputs.size());
  for (size_t i = 0; i < plan.outputs.size(); ++i) outputs[i] = &values[plan.outputs[i]];

  KernelContext context(node, inputs, implicit, outputs, plan.allocator, run);
  Status status = run.profiler == nullptr ? Compute(*plan.kernel, context)
                                          : ComputeProfiled(*plan.kernel, context, inputs, outputs);
  if (!status.ok()) {
    if (status.message().find(node.Describe()) != std::string::npos) return status;
    return status.WithContext(node.Describe());
  }
  for (size_t i = 0; i < plan.outputs.size(); ++i) {
    const int slot = plan.outputs[i];
    if (values[slot].IsEmpty() && node.HasOutput(i)) {
      return ORT_ERROR(kRuntimeError, "{}: kernel did not produce output {} ('{}')",
                       node.Describe(), i, node.outputs()[i]);
    }
    slots[slot] = &values[slot];
  }
  for (int slot : plan.release) {
    values[slot] = Value();
    slots[slot] = nullptr;
  }
  return Status::OK();
}

Status SessionState::Run(const RunContext& run, std::span<const Value> inputs,
                         std::span<const Value* const> outer_scope,
                         std::vector<Value>& outputs) const {
  if (inputs.size() > input_slots_.size() || outer_scope.size() != outer_slots_.size()) {
    return ORT_ERROR(
        kInvalidArgument, "graph '{}' takes {} inputs and {} outer-scope values, got {} and {}",
        graph_.name(), input_slots_.size(), outer_slots_.size(), inputs.size(), outer_scope.size());
  }
  std::vector<Value> values(slot_count_);
  std::vector<const Value*> slots(slot_count_, nullptr);
  for (const auto& [slot, value] : constants_) slots[slot] = &value;
  for (size_t i = 0; i < outer_scope.size(); ++i) slots[outer_slots_[i]] = outer_scope[i];
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].IsEmpty()) slots[input_slots_[i]] = &inputs[i];
  }
  for (size_t i = 0; i < input_slots_.size(); ++i) {
    if (slots[input_slots_[i]] == nullptr) {
      return ORT_ERROR(kInvalidArgument, "graph '{}': input '{}' was not given", graph_.name(),
                       input_names_[i]);
    }
  }
  for (const auto& plan : plans_) {
    if (run.Terminated()) return ORT_ERROR(kRuntimeError, "the run was terminated");
    ORT_RETURN_IF_ERROR(ExecuteNode(plan, run, slots, values));
  }
  outputs.clear();
  outputs.reserve(output_slots_.size());
  for (size_t i = 0; i < output_slots_.size(); ++i) {
    const Value* value = slots[output_slots_[i]];
    if (value == nullptr) {
      return ORT_ERROR(kRuntimeError, "graph '{}': output '{}' was not computed", graph_.name(),
                       output_names_[i]);
    }
    outputs.push_back(*value);
  }
  return Status::OK();
}

}  // namespace ort
