#include "providers/cpu/kernels/common/weight_buffer.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#include "lib/memory/allocator.h"

namespace ort {

namespace {

// The CPU allocator asks for huge pages for blocks of 2 MB and more.
float* Allocate(int64_t count, WeightBuffer::Pages pages) {
  if (count > static_cast<int64_t>(SIZE_MAX / sizeof(float))) throw std::bad_alloc();
  const size_t bytes = static_cast<size_t>(count > 0 ? count : 1) * sizeof(float);
  void* memory = pages == WeightBuffer::Pages::kHugeWhenLarge
                     ? DefaultCpuAllocator()->Alloc(bytes)
                     : std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (memory == nullptr) throw std::bad_alloc();
  return static_cast<float*>(memory);
}

}  // namespace

WeightBuffer::WeightBuffer(int64_t count, Pages pages)
    : data_(Allocate(count, pages), Free{pages == Pages::kHugeWhenLarge}) {}

void WeightBuffer::Free::operator()(float* pointer) const {
  if (from_cpu_allocator) {
    DefaultCpuAllocator()->Free(pointer);
  } else {
    std::free(pointer);
  }
}

}  // namespace ort
