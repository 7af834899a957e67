#include "lib/memory/allocator.h"

#include <cstdlib>
#include <string>

namespace ort {

std::string MemoryInfo::ToString() const {
  return device == Device::kCpu ? "cpu" : "cuda:" + std::to_string(device_id);
}

void* CpuAllocator::Alloc(size_t bytes) {
  const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  return std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
}

void CpuAllocator::Free(void* pointer) { std::free(pointer); }

std::shared_ptr<IAllocator> DefaultCpuAllocator() {
  static const std::shared_ptr<IAllocator> allocator = std::make_shared<CpuAllocator>();
  return allocator;
}

}  // namespace ort
