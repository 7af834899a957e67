// Allocator interface behind every tensor allocation, so that providers (CPU, CUDA) and the
// arena of the execution engine plug in without touching kernels.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace ort {

/// Where a buffer lives.
struct MemoryInfo {
  enum class Device { kCpu, kCuda };
  Device device = Device::kCpu;
  int device_id = 0;

  bool IsCpu() const { return device == Device::kCpu; }
  bool operator==(const MemoryInfo& other) const = default;
  /// "cpu" or "cuda:0".
  std::string ToString() const;
};

/// Raw memory for tensors. Implementations are thread-safe.
class IAllocator {
 public:
  virtual ~IAllocator() = default;
  /// At least `bytes` bytes aligned to kAlignment; nullptr when out of memory. A request of 0
  /// bytes returns a valid unique pointer.
  virtual void* Alloc(size_t bytes) = 0;
  /// Releases memory from Alloc; nullptr is ignored.
  virtual void Free(void* pointer) = 0;
  virtual const MemoryInfo& Info() const = 0;

  /// Alignment of every CPU allocation: one cache line, enough for any AVX-512 load.
  static constexpr size_t kAlignment = 64;
};

/// Aligned CPU heap allocator.
class CpuAllocator final : public IAllocator {
 public:
  void* Alloc(size_t bytes) override;
  void Free(void* pointer) override;
  const MemoryInfo& Info() const override { return info_; }

 private:
  MemoryInfo info_;
};

/// The process-wide plain CPU allocator.
std::shared_ptr<IAllocator> DefaultCpuAllocator();

}  // namespace ort
