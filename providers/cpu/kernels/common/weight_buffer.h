// Memory for floats a kernel writes once at session start from constant weights.
#pragma once

#include <cstdint>
#include <memory>

namespace ort {

/// Room for pre-packed GEMM panels or transformed filters, not zero-filled, since the packers
/// write every element: a std::vector's zeroing pass over memory about to be written was a third
/// of an optimized GoogLeNet's session start. Small pages, unlike the CPU allocator's large
/// blocks: on a virtual machine whose host takes back the guest's freed memory, a fresh huge page
/// can cost a host fault on first touch, and huge-page weights made session starts swing (ViT-B/32
/// 0.45-1.9 s against 0.55-0.75 s; an optimized GoogLeNet 16-80 ms against 23-34 ms).
class WeightBuffer {
 public:
  /// Room for `count` floats, 64-byte aligned; throws std::bad_alloc when it cannot be allocated,
  /// which kernel creation reports as an error naming the node.
  explicit WeightBuffer(int64_t count);

  float* data() const { return data_.get(); }

 private:
  struct Free {
    void operator()(float* pointer) const;
  };
  std::unique_ptr<float, Free> data_;
};

}  // namespace ort
