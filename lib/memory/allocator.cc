#include "lib/memory/allocator.h"

#include <cstdlib>
#include <string>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ort {

std::string MemoryInfo::ToString() const {
  return device == Device::kHost ? "host" : "gpu:" + std::to_string(device_id);
}

namespace {

// Large blocks (weights, arena regions) start on a huge-page boundary and ask the kernel for
// transparent huge pages: filling them then costs one page fault per 2 MiB instead of 512, which
// dominates rewriting weights at session start on virtual machines.
constexpr size_t kHugePageBytes = size_t{2} << 20;

size_t RoundUp(size_t bytes, size_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

}  // namespace

void* CpuAllocator::Alloc(size_t bytes) {
  if (bytes < kHugePageBytes) {
    const size_t rounded = RoundUp(bytes, kAlignment);
    return std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  }
  const size_t rounded = RoundUp(bytes, kHugePageBytes);
  void* pointer = std::aligned_alloc(kHugePageBytes, rounded);
#ifdef MADV_HUGEPAGE
  if (pointer != nullptr) ::madvise(pointer, rounded, MADV_HUGEPAGE);
#endif
  return pointer;
}

void CpuAllocator::Free(void* pointer) { std::free(pointer); }

size_t DefaultMaxTensorBytes() {
  static const size_t bytes = [] {
    size_t physical = 0;
#ifdef __linux__
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page_size = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0) {
      physical = static_cast<size_t>(pages) * static_cast<size_t>(page_size);
    }
#endif
    return physical > 0 ? physical : size_t{16} << 30;
  }();
  return bytes;
}

std::shared_ptr<IAllocator> DefaultCpuAllocator() {
  static const std::shared_ptr<IAllocator> allocator = std::make_shared<CpuAllocator>();
  return allocator;
}

}  // namespace ort
