// The kernel interface: a kernel is created once per node (parsing attributes, pre-packing
// constant weights) and then computes many times, possibly from several threads at once.
#pragma once

#include <atomic>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/graph.h"
#include "lib/ir/value.h"
#include "lib/memory/allocator.h"
#include "lib/threading/thread_pool.h"

namespace ort {

class IExecutionProvider;
class KernelContext;
class Profiler;

/// Per-Run state visible to kernels.
struct RunContext {
  ThreadPool* intra_op_pool = nullptr;
  /// Runs independent nodes at once in parallel execution mode; null in sequential mode.
  ThreadPool* inter_op_pool = nullptr;
  /// Set by the caller to stop a run early; checked between nodes and loop iterations.
  const std::atomic<bool>* terminate = nullptr;
  /// Records node events when this run is profiled; null otherwise, which keeps the executor on
  /// its untimed path.
  Profiler* profiler = nullptr;
  /// Outputs and scratch tensors above this many bytes are an error naming the node, not an
  /// allocation (SessionOptions::max_tensor_bytes).
  size_t max_tensor_bytes = DefaultMaxTensorBytes();

  bool Terminated() const { return terminate != nullptr && terminate->load(); }
};

/// Runs a subgraph (an If branch, a Loop or Scan body) for a control-flow kernel.
class SubgraphRunner {
 public:
  virtual ~SubgraphRunner() = default;
  virtual const Graph& graph() const = 0;
  /// The subgraph's formal inputs, in order (initializer-only inputs excluded).
  virtual const std::vector<std::string>& input_names() const = 0;
  virtual const std::vector<std::string>& output_names() const = 0;
  /// Values of enclosing scopes the subgraph reads, in the order Run takes them.
  virtual const std::vector<std::string>& outer_scope_names() const = 0;
  /// Runs the subgraph; `outputs` receives one value per output name.
  virtual Status Run(const RunContext& run, std::span<const Value> inputs,
                     std::span<const Value* const> outer_scope,
                     std::vector<Value>& outputs) const = 0;
};

/// Finds the runner of a subgraph attribute of a node (provided by the session).
class SubgraphLookup {
 public:
  virtual ~SubgraphLookup() = default;
  virtual const SubgraphRunner* Find(const Node& node, std::string_view attribute) const = 0;
};

/// What a kernel sees at creation: its node, attributes, constant inputs and provider.
class KernelInfo {
 public:
  KernelInfo(const Node& node, const IExecutionProvider& provider,
             const SubgraphLookup* subgraphs = nullptr)
      : node_(node), provider_(provider), subgraphs_(subgraphs) {}

  const Node& node() const { return node_; }
  const IExecutionProvider& provider() const { return provider_; }
  std::shared_ptr<IAllocator> allocator() const;
  /// The node's domain opset version.
  int64_t opset() const { return node_.graph().OpsetVersion(node_.domain()); }

  bool HasAttribute(std::string_view name) const { return node_.FindAttribute(name) != nullptr; }
  /// A required attribute. T: int64_t, float, std::string, std::vector<int64_t>,
  /// std::vector<float>, std::vector<std::string>, Tensor.
  template <typename T>
  Result<T> GetAttribute(std::string_view name) const;
  /// An optional attribute with a default; a present attribute of the wrong type is an error.
  template <typename T>
  Result<T> GetAttributeOr(std::string_view name, T fallback) const {
    if (!HasAttribute(name)) return fallback;
    return GetAttribute<T>(name);
  }

  size_t InputCount() const { return node_.inputs().size(); }
  size_t OutputCount() const { return node_.outputs().size(); }
  /// The constant initializer feeding input `index` (never one a feed may override), or null.
  const Tensor* ConstantInput(size_t index) const;
  /// The static type of input/output `index` when known.
  const ValueType* InputType(size_t index) const;
  const ValueType* OutputType(size_t index) const;
  /// The runner of subgraph attribute `attribute`, or null.
  const SubgraphRunner* Subgraph(std::string_view attribute) const;

 private:
  const Node& node_;
  const IExecutionProvider& provider_;
  const SubgraphLookup* subgraphs_;
};

/// Memory for a node's outputs chosen by the session's allocation plan: a slice of the run's
/// memory-pattern block, or a dying input's buffer reused in place.
class OutputAllocator {
 public:
  virtual ~OutputAllocator() = default;
  /// A tensor for output `index`, or an undefined tensor when the plan offers nothing (the
  /// context then allocates from its allocator).
  virtual Tensor Allocate(size_t index, DataType type, const TensorShape& shape) = 0;
};

/// What a kernel sees while computing: its inputs, output slots, allocator and thread pool.
class KernelContext {
 public:
  KernelContext(const Node& node, std::span<const Value* const> inputs,
                std::span<const Value* const> implicit_inputs, std::span<Value* const> outputs,
                std::shared_ptr<IAllocator> allocator, const RunContext& run)
      : node_(node),
        inputs_(inputs),
        implicit_inputs_(implicit_inputs),
        outputs_(outputs),
        allocator_(std::move(allocator)),
        run_(run) {}

  const Node& node() const { return node_; }
  const RunContext& run() const { return run_; }
  ThreadPool* thread_pool() const { return run_.intra_op_pool; }
  const std::shared_ptr<IAllocator>& allocator() const { return allocator_; }
  /// Lets the executor place outputs by its allocation plan; null allocates every output anew.
  void set_output_allocator(OutputAllocator* planned) { planned_ = planned; }
  /// Per-output allocators (the CPU's for a device kernel's host outputs); `allocator` otherwise.
  void set_output_allocators(std::span<const std::shared_ptr<IAllocator>> allocators) {
    output_allocators_ = allocators;
  }

  size_t InputCount() const { return inputs_.size(); }
  size_t OutputCount() const { return outputs_.size(); }
  bool HasInput(size_t index) const { return index < inputs_.size() && inputs_[index] != nullptr; }
  /// Input `index` as a value; null when omitted.
  const Value* InputValue(size_t index) const { return HasInput(index) ? inputs_[index] : nullptr; }
  /// Input `index` as a tensor; null when omitted or not a tensor.
  const Tensor* Input(size_t index) const;
  /// Input `index` as a tensor, or an error naming the node and input.
  Result<const Tensor*> RequiredInput(size_t index) const;
  size_t ImplicitInputCount() const { return implicit_inputs_.size(); }
  const Value* ImplicitInput(size_t index) const { return implicit_inputs_[index]; }

  /// Allocates output `index` with the node's allocator.
  Result<Tensor*> Output(size_t index, DataType type, TensorShape shape);
  /// Sets output `index` to an existing value (a view of an input, a sequence, none).
  Status SetOutput(size_t index, Value value);
  /// True when the model names output `index` (omitted optional outputs are not needed).
  bool IsOutputUsed(size_t index) const { return node_.HasOutput(index); }
  /// Scratch memory for the duration of Compute.
  Result<Tensor> AllocateTemp(DataType type, TensorShape shape) const;

  /// An error status naming the node: "node 'x' (Op): message" (see Status::WithNode).
  template <typename... Args>
  Status Error(fmt::format_string<Args...> format, Args&&... args) const {
    return Status(StatusCode::kInvalidArgument, fmt::format(format, std::forward<Args>(args)...))
        .WithNode(node_.Describe());
  }

 private:
  const Node& node_;
  std::span<const Value* const> inputs_;
  std::span<const Value* const> implicit_inputs_;
  std::span<Value* const> outputs_;
  std::shared_ptr<IAllocator> allocator_;
  // The bytes of a tensor this node is about to allocate (output `output`, or scratch when
  // negative), or an error naming the node and tensor when its shape overflows or it is above
  // RunContext::max_tensor_bytes.
  Result<size_t> CheckedBytes(int64_t output, DataType type, const TensorShape& shape) const;

  const RunContext& run_;
  OutputAllocator* planned_ = nullptr;
  std::span<const std::shared_ptr<IAllocator>> output_allocators_;
};

template <>
Result<int64_t> KernelInfo::GetAttribute<int64_t>(std::string_view name) const;
template <>
Result<float> KernelInfo::GetAttribute<float>(std::string_view name) const;
template <>
Result<std::string> KernelInfo::GetAttribute<std::string>(std::string_view name) const;
template <>
Result<std::vector<int64_t>> KernelInfo::GetAttribute<std::vector<int64_t>>(
    std::string_view name) const;
template <>
Result<std::vector<float>> KernelInfo::GetAttribute<std::vector<float>>(
    std::string_view name) const;
template <>
Result<std::vector<std::string>> KernelInfo::GetAttribute<std::vector<std::string>>(
    std::string_view name) const;
template <>
Result<Tensor> KernelInfo::GetAttribute<Tensor>(std::string_view name) const;

class OpKernel {
 public:
  virtual ~OpKernel() = default;
  /// Parses attributes and prepares constants; called once before any Compute.
  virtual Status Init(const KernelInfo& info) {
    (void)info;
    return Status::OK();
  }
  /// Computes the outputs. Must be safe to call concurrently.
  virtual Status Compute(KernelContext& context) const = 0;
  /// True when Init packed constant input `index` and Compute never reads it, so the session may
  /// free the initializer (as ONNX Runtime does after pre-packing).
  virtual bool PrePackedInput(size_t index) const {
    (void)index;
    return false;
  }
};

}  // namespace ort
