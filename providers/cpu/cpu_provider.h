// The CPU execution provider: the default and the fallback for every node.
#pragma once

#include "lib/framework/execution_provider.h"

namespace ort {

class CpuExecutionProvider final : public IExecutionProvider {
 public:
  CpuExecutionProvider() : IExecutionProvider("cpu") {}

  const KernelRegistry& kernel_registry() const override;
  std::shared_ptr<IAllocator> allocator() const override { return DefaultCpuAllocator(); }
};

/// Every CPU kernel, registered once per process.
const KernelRegistry& CpuKernelRegistry();

}  // namespace ort
