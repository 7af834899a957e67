#include "lib/session/session_state.h"

#include <exception>
#include <new>

#include "lib/common/logging.h"
#include "lib/profiler/node_profile.h"
#include "lib/profiler/profiler.h"
#include "lib/session/memcpy_insertion.h"

namespace ort {
namespace {

Result<Value> UploadConstant(const Tensor& weight, const IExecutionProvider& provider) {
  const IDataTransfer* transfer = provider.data_transfer();
  if (transfer == nullptr) {
    return ORT_ERROR(kInvalidArgument, "provider {} has no data transfer", provider.type());
  }
  ORT_ASSIGN_OR_RETURN(Tensor copy,
                       Tensor::Allocate(weight.dtype(), weight.shape(), provider.allocator()));
  ORT_RETURN_IF_ERROR(transfer->Copy(weight, copy));
  return Value(std::move(copy));
}

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
// Times Compute; a device provider's node is timed until its device work is done.
Status ComputeProfiled(const OpKernel& kernel, const IExecutionProvider& provider,
                       KernelContext& context, std::span<const Value* const> inputs,
                       std::span<Value* const> outputs) {
  const RunContext& run = context.run();
  const ThreadPool* pool = run.intra_op_pool;
  const bool device = !provider.allocator()->Info().IsHost();
  ParallelStats stats(pool != nullptr ? pool->DegreeOfParallelism() : 1);
  Status status;
  std::optional<double> device_us;
  const auto start = Profiler::Clock::now();
  {
    ScopedParallelStats scope(&stats);
    if (device) {
      auto timed = provider.TimeDeviceWork([&] { return Compute(kernel, context); });
      if (timed.ok()) {
        device_us = *timed;
      } else {
        status = timed.status();
      }
    } else {
      status = Compute(kernel, context);
    }
  }
  const auto end = Profiler::Clock::now();
  if (status.ok()) {
    RecordNodeEvent(*run.profiler, {&context.node(), inputs, outputs, pool, &stats, start, end,
                                    device ? std::string_view(provider.type()) : "", device_us});
  }
  return status;
}

}  // namespace

Result<std::unique_ptr<SessionState>> SessionState::Create(
    const Graph& graph, std::span<IExecutionProvider* const> providers,
    ExecutionPlanOptions options, Profiler* profiler) {
  std::unique_ptr<SessionState> state(new SessionState(graph, options));
  {
    // Kernels pre-pack their constant weights in Init, so this is where prepacking is timed.
    ScopedProfileEvent event(profiler, "kernel_creation_and_prepacking");
    ORT_RETURN_IF_ERROR(state->CreateKernels(providers));
    if (options.release_prepacked) state->ReleasePrePackedConstants();
    event.AddArg("nodes", state->plans_.size());
    event.AddArg("released_constants", state->released_constants_.size());
  }
  {
    ScopedProfileEvent event(profiler, "allocation_planning");
    ORT_RETURN_IF_ERROR(state->PlanReleases());
    ORT_RETURN_IF_ERROR(state->PlanMemory());
    if (options.parallel) state->PlanDependencies();
    const AllocationPlan& plan = state->allocation_plan_;
    event.AddArg("buffers", plan.buffers.size());
    event.AddArg("in_place", plan.in_place.size());
  }
  return state;
}

int SessionState::SlotFor(const std::string& name) {
  auto [it, inserted] = slots_.emplace(name, slot_count_);
  if (inserted) ++slot_count_;
  return it->second;
}

Status SessionState::CreateKernels(std::span<IExecutionProvider* const> providers) {
  input_names_ = graph_.inputs();
  output_names_ = graph_.outputs();
  outer_names_ = graph_.outer_scope_values();
  for (const auto& name : input_names_) input_slots_.push_back(SlotFor(name));
  for (const auto& name : outer_names_) outer_slots_.push_back(SlotFor(name));
  for (const auto& [name, tensor] : graph_.initializers()) {
    constants_.emplace_back(SlotFor(name), Value(tensor));
  }

  // Outputs a kernel makes on the host (shapes from a device kernel) use the fallback's allocator.
  const IExecutionProvider* fallback = FindFallbackProvider(providers);
  const std::shared_ptr<IAllocator> host_allocator = fallback ? fallback->allocator() : nullptr;
  ORT_ASSIGN_OR_RETURN(std::vector<NodeIndex> order, graph_.TopologicalOrder());
  for (NodeIndex index : order) {
    const Node& node = *graph_.GetNode(index);
    IExecutionProvider* found = FindProvider(providers, node.provider());
    if (found == nullptr) {
      return ORT_ERROR(kInvalidArgument, "{} is assigned to unknown provider '{}'", node.Describe(),
                       node.provider());
    }
    IExecutionProvider& provider = *found;
    if (node.op_type() == kMemcpyFromHost && node.domain().empty()) {
      // Weights go to the device once, here, instead of on every run.
      if (const Tensor* weight = graph_.GetConstantInitializer(node.inputs()[0], false)) {
        ORT_ASSIGN_OR_RETURN(Value uploaded, UploadConstant(*weight, provider));
        constants_.emplace_back(SlotFor(node.outputs()[0]), std::move(uploaded));
        continue;
      }
    }
    for (const auto& [name, attribute] : node.attributes()) {
      if (!attribute.g) continue;
      ExecutionPlanOptions sub_options = options_;
      sub_options.parallel = false;
      sub_options.release_prepacked = false;
      auto sub = SessionState::Create(*attribute.g, providers, sub_options);
      if (!sub.ok()) return sub.status().WithContext(node.Describe() + " attribute '" + name + "'");
      subgraphs_[{index, name}] = std::move(sub).value();
    }
    std::string why_not;
    const KernelEntry* entry = provider.kernel_registry().Find(node, &why_not);
    if (entry == nullptr) {
      return ORT_ERROR(kNotImplemented, "provider {} has no kernel for it ({})", provider.type(),
                       why_not)
          .WithNode(node.Describe());
    }
    KernelInfo info(node, provider, this);
    auto kernel = entry->factory(info);
    if (!kernel.ok()) return kernel.status().WithNode(node.Describe());

    NodePlan plan;
    plan.node = &node;
    plan.kernel = kernel->get();
    plan.provider = &provider;
    plan.allocator = provider.allocator();
    for (size_t i = 0; i < node.outputs().size(); ++i) {
      const bool host = entry->def.IsHostOutput(static_cast<int>(i)) && host_allocator != nullptr;
      plan.output_allocators.push_back(host ? host_allocator : plan.allocator);
    }
    plan.in_place_candidates = entry->def.in_place();
    plan.aliases = entry->def.aliases();
    for (const auto& input : node.inputs())
      plan.inputs.push_back(input.empty() ? -1 : SlotFor(input));
    for (const auto& input : node.implicit_inputs()) plan.implicit_inputs.push_back(SlotFor(input));
    for (const auto& output : node.outputs()) {
      // Omitted optional outputs still get a slot so kernels may write them unconditionally.
      plan.outputs.push_back(output.empty() ? slot_count_++ : SlotFor(output));
    }
    kernels_.push_back(std::move(kernel).value());
    order_.push_back(&node);
    plans_.push_back(std::move(plan));
  }
  for (const auto& name : output_names_) output_slots_.push_back(SlotFor(name));
  return Status::OK();
}

void SessionState::ReleasePrePackedConstants() {
  std::vector<bool> needed(slot_count_, false);
  std::vector<bool> packed(slot_count_, false);
  for (int slot : output_slots_) needed[slot] = true;
  for (const NodePlan& plan : plans_) {
    for (size_t i = 0; i < plan.inputs.size(); ++i) {
      const int slot = plan.inputs[i];
      if (slot < 0) continue;
      (plan.kernel->PrePackedInput(i) ? packed : needed)[slot] = true;
    }
    for (int slot : plan.implicit_inputs) needed[slot] = true;
  }
  std::vector<bool> released(slot_count_, false);
  for (const auto& [name, tensor] : graph_.initializers()) {
    const int slot = slots_.at(name);
    if (packed[slot] && !needed[slot]) {
      released[slot] = true;
      released_constants_.push_back(name);
    }
  }
  if (released_constants_.empty()) return;
  std::erase_if(constants_, [&](const auto& constant) { return released[constant.first]; });
  for (NodePlan& plan : plans_) {
    for (int& slot : plan.inputs) {
      if (slot >= 0 && released[slot]) slot = -1;
    }
  }
}

Status SessionState::PlanReleases() {
  // Values the run must keep (outputs, feeds, outer scope, constants) are never released.
  kept_.assign(slot_count_, false);
  for (int slot : output_slots_) kept_[slot] = true;
  for (int slot : input_slots_) kept_[slot] = true;
  for (int slot : outer_slots_) kept_[slot] = true;
  for (const auto& [slot, value] : constants_) kept_[slot] = true;

  std::vector<int> last_reader(slot_count_, -1);
  for (size_t position = 0; position < plans_.size(); ++position) {
    const NodePlan& plan = plans_[position];
    const int here = static_cast<int>(position);
    for (int slot : plan.inputs) {
      if (slot >= 0) last_reader[slot] = here;
    }
    for (int slot : plan.implicit_inputs) last_reader[slot] = here;
    for (int slot : plan.outputs) {
      if (last_reader[slot] < 0) last_reader[slot] = here;
    }
  }
  for (int slot = 0; slot < slot_count_; ++slot) {
    if (last_reader[slot] >= 0 && !kept_[slot]) plans_[last_reader[slot]].release.push_back(slot);
  }
  return Status::OK();
}

const SubgraphRunner* SessionState::Find(const Node& node, std::string_view attribute) const {
  auto it = subgraphs_.find(std::make_pair(node.index(), std::string(attribute)));
  return it == subgraphs_.end() ? nullptr : it->second.get();
}

Status SessionState::ExecuteNode(const NodePlan& plan, const RunContext& run,
                                 std::vector<const Value*>& slots, std::vector<Value>& values,
                                 RunMemory* memory) const {
  const Node& node = *plan.node;
  std::vector<const Value*> inputs(plan.inputs.size(), nullptr);
  for (size_t i = 0; i < plan.inputs.size(); ++i) {
    const int slot = plan.inputs[i];
    if (slot < 0) continue;
    inputs[i] = slots[slot];
    if (inputs[i] == nullptr) {
      return ORT_ERROR(kRuntimeError, "input '{}' has no value", node.inputs()[i])
          .WithNode(node.Describe());
    }
  }
  std::vector<const Value*> implicit(plan.implicit_inputs.size());
  for (size_t i = 0; i < plan.implicit_inputs.size(); ++i) {
    implicit[i] = slots[plan.implicit_inputs[i]];
    if (implicit[i] == nullptr) {
      return ORT_ERROR(kRuntimeError, "outer-scope value '{}' has no value",
                       node.implicit_inputs()[i])
          .WithNode(node.Describe());
    }
  }
  std::vector<Value*> outputs(plan.outputs.size());
  for (size_t i = 0; i < plan.outputs.size(); ++i) outputs[i] = &values[plan.outputs[i]];

  KernelContext context(node, inputs, implicit, outputs, plan.allocator, run);
  context.set_output_allocators(plan.output_allocators);
  if (memory != nullptr) {
    memory->BeginNode(plan.memory, inputs);
    context.set_output_allocator(memory);
  }
  Status status = !kProfilingCompiledIn || run.profiler == nullptr
                      ? Compute(*plan.kernel, context)
                      : ComputeProfiled(*plan.kernel, *plan.provider, context, inputs, outputs);
  if (!status.ok()) return status.WithNode(node.Describe());
  for (size_t i = 0; i < plan.outputs.size(); ++i) {
    const int slot = plan.outputs[i];
    if (values[slot].IsEmpty() && node.HasOutput(i)) {
      return ORT_ERROR(kRuntimeError, "kernel did not produce output {} ('{}')", i,
                       node.outputs()[i])
          .WithNode(node.Describe());
    }
    slots[slot] = &values[slot];
  }
  return Status::OK();
}

namespace {

// The concrete shapes a run starts from, which decide every planned size in the graph.
MemoryPatternCache::ShapeKey InputShapes(std::span<const Value> inputs,
                                         std::span<const Value* const> outer_scope) {
  MemoryPatternCache::ShapeKey key;
  auto add = [&key](const Value* value) {
    if (value == nullptr || !value->IsTensor()) {
      key.push_back({-1});
      return;
    }
    const TensorShape& shape = value->tensor().shape();
    key.emplace_back(shape.dims().begin(), shape.dims().end());
  };
  for (const Value& input : inputs) add(input.IsEmpty() ? nullptr : &input);
  for (const Value* value : outer_scope) add(value);
  return key;
}

}  // namespace

Status SessionState::RunSequential(const RunContext& run, std::span<const Value> inputs,
                                   std::span<const Value* const> outer_scope,
                                   std::vector<const Value*>& slots,
                                   std::vector<Value>& values) const {
  MemoryPatternCache::ShapeKey shapes;
  std::shared_ptr<const MemoryPattern> pattern;
  if (options_.memory_pattern) {
    shapes = InputShapes(inputs, outer_scope);
    pattern = patterns_.Find(shapes);
  }
  RunMemory memory(allocation_plan_, pattern, allocators_);
  const bool record_sizes = options_.memory_pattern && !pattern;
  for (const NodePlan& plan : plans_) {
    if (run.Terminated()) return ORT_ERROR(kRuntimeError, "the run was terminated");
    ORT_RETURN_IF_ERROR(ExecuteNode(plan, run, slots, values, &memory));
    if (record_sizes) {
      for (size_t i = 0; i < plan.outputs.size(); ++i) {
        const Value& value = values[plan.outputs[i]];
        if (plan.memory.output_buffers[i] == AllocationPlan::kNoBuffer || !value.IsTensor()) {
          continue;
        }
        memory.RecordSize(plan.outputs[i], value.tensor().SizeInBytes());
      }
    }
    for (int slot : plan.release) {
      values[slot] = Value();
      slots[slot] = nullptr;
    }
  }
  if (options_.memory_pattern && !pattern) {
    auto computed = ComputeMemoryPattern(allocation_plan_, memory.recorded_sizes());
    if (computed.ok()) {
      patterns_.Insert(std::move(shapes), std::move(computed).value());
    } else {
      ORT_LOG_WARNING("graph '{}': no memory pattern: {}", graph_.name(),
                      computed.status().message());
    }
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
  const ThreadPool* inter_op = run.inter_op_pool;
  if (options_.parallel && inter_op != nullptr && inter_op->DegreeOfParallelism() > 1) {
    ORT_RETURN_IF_ERROR(RunParallel(run, slots, values));
  } else {
    ORT_RETURN_IF_ERROR(RunSequential(run, inputs, outer_scope, slots, values));
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
