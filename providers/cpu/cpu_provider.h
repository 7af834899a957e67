// The CPU execution provider: the default and the fallback for every node.
#pragma once

#include "lib/framework/execution_provider.h"
#include "lib/memory/arena.h"

namespace ort {

struct CpuProviderOptions {
  /// Tensors come from a BFC arena (ONNX Runtime's enable_cpu_mem_arena), which keeps freed
  /// blocks for the next run; off, every tensor is a separate aligned heap allocation.
  bool use_arena = true;
  ArenaOptions arena;
};

class CpuExecutionProvider final : public IExecutionProvider {
 public:
  explicit CpuExecutionProvider(CpuProviderOptions options = {});

  const KernelRegistry& kernel_registry() const override;
  std::shared_ptr<IAllocator> allocator() const override { return allocator_; }
  bool IsFallback() const override { return true; }

 private:
  std::shared_ptr<IAllocator> allocator_;
};

/// Every CPU kernel, registered once per process.
const KernelRegistry& CpuKernelRegistry();

}  // namespace ort
