// Allocator interface behind every tensor allocation, so that providers and the
// arena of the execution engine plug in without touching kernels.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace ort {

/// Where a buffer lives: host memory, or the memory of one GPU (which provider drives it is the
/// provider's business).
struct MemoryInfo {
  enum class Device { kHost, kGpu };
  Device device = Device::kHost;
  int device_id = 0;

  bool IsHost() const { return device == Device::kHost; }
  bool operator==(const MemoryInfo& other) const = default;
  /// "host" or "gpu:0".
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

/// The default bound on a single tensor's bytes (SessionOptions::max_tensor_bytes): the machine's
/// physical memory, since a larger tensor can only end in an OOM kill or endless swapping (and
/// Linux's overcommit lets the allocation itself succeed); 16 GiB where it cannot be read.
size_t DefaultMaxTensorBytes();

/// The process-wide plain CPU allocator.
std::shared_ptr<IAllocator> DefaultCpuAllocator();

}  // namespace ort
