// Device memory from cudaMalloc on one GPU (the arena sits on top of it).
#pragma once

#include "lib/memory/allocator.h"

namespace ort {

class CudaAllocator final : public IAllocator {
 public:
  explicit CudaAllocator(int device_id);
  /// nullptr when the device is out of memory or absent.
  void* Alloc(size_t bytes) override;
  void Free(void* pointer) override;
  const MemoryInfo& Info() const override { return info_; }

 private:
  MemoryInfo info_;
};

}  // namespace ort
