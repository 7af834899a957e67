// Execution provider interface (ONNX Runtime's IExecutionProvider): a provider names itself,
// claims the nodes it can run, owns their kernels and allocators, copies data to and from its
// device, and declares what the optimizer may make for it. lib/ never names a provider: it asks
// providers these questions instead.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/framework/kernel_registry.h"
#include "lib/ir/graph.h"
#include "lib/memory/allocator.h"

namespace ort {

/// Copies tensors between devices.
class IDataTransfer {
 public:
  virtual ~IDataTransfer() = default;
  virtual bool CanCopy(const MemoryInfo& source, const MemoryInfo& destination) const = 0;
  /// Copies `source` into the preallocated `destination` of equal type and shape.
  virtual Status Copy(const Tensor& source, Tensor& destination) const = 0;
};

class IExecutionProvider {
 public:
  explicit IExecutionProvider(std::string type) : type_(std::move(type)) {}
  virtual ~IExecutionProvider() = default;

  /// Short name used on the command line and in node assignments.
  const std::string& type() const { return type_; }

  /// True for the provider that runs on the host and takes every node no other provider claims
  /// (the CPU provider). A session needs one; constant folding evaluates nodes with its kernels.
  virtual bool IsFallback() const { return false; }

  /// Whether the optimizer may apply the rewrite named `rewrite` (a fusion or layout change whose
  /// ops this provider's kernels run) when this provider is the session's preferred one. A
  /// provider declines rewrites whose ops it runs but should not be handed. By default, all.
  virtual bool AcceptsRewrite(std::string_view rewrite) const {
    (void)rewrite;
    return true;
  }

  virtual const KernelRegistry& kernel_registry() const = 0;
  /// Allocator for tensors this provider's kernels produce.
  virtual std::shared_ptr<IAllocator> allocator() const = 0;
  /// Copies to and from this provider's device; null for the CPU.
  virtual const IDataTransfer* data_transfer() const { return nullptr; }
  /// Waits until the work this provider's kernels have queued is done (device kernels return
  /// before their work finishes); the profiler calls it after each node to time device work.
  virtual Status Synchronize() const { return Status::OK(); }
  /// Runs `work` (a kernel queuing this provider's device work) and waits until that work is
  /// done; returns the device's own time for it in microseconds when the provider can measure
  /// it (CUDA events), else nullopt. The default runs `work`, then Synchronize.
  virtual Result<std::optional<double>> TimeDeviceWork(const std::function<Status()>& work) const;

  /// The nodes of `graph` (not of its subgraphs) this provider takes among those not yet
  /// assigned. By default: every such node its kernel registry matches.
  virtual std::vector<NodeIndex> GetCapability(const Graph& graph) const;

 private:
  std::string type_;
};

/// The fallback provider among `providers` (IsFallback), or null when none is registered.
IExecutionProvider* FindFallbackProvider(std::span<IExecutionProvider* const> providers);

/// The provider of `type` among `providers`, or null.
IExecutionProvider* FindProvider(std::span<IExecutionProvider* const> providers,
                                 std::string_view type);

}  // namespace ort
