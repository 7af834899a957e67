#include "providers/cpu/kernels/common/weight_buffer.h"

#include <cstdint>
#include <cstdlib>
#include <new>

namespace ort {
namespace {

float* Allocate(int64_t count) {
  if (count > static_cast<int64_t>(SIZE_MAX / sizeof(float))) throw std::bad_alloc();
  const size_t bytes = static_cast<size_t>(count > 0 ? count : 1) * sizeof(float);
  void* memory = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (memory == nullptr) throw std::bad_alloc();
  return static_cast<float*>(memory);
}

}  // namespace

WeightBuffer::WeightBuffer(int64_t count) : data_(Allocate(count)) {}

void WeightBuffer::Free::operator()(float* pointer) const { std::free(pointer); }

}  // namespace ort
