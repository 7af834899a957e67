// Memory for floats a kernel writes once at session start from constant weights.
#pragma once

#include <cstdint>
#include <memory>

namespace ort {

/// Room for pre-packed GEMM panels or transformed filters, not zero-filled, since the packers
/// write every element: a std::vector's zeroing pass over memory about to be written was a third
/// of an optimized GoogLeNet's session start.
class WeightBuffer {
 public:
  /// Which pages back the buffer. On virtual machines whose host reclaims the guest's freed
  /// memory, each fresh huge page can cost a host fault: ViT-B/32's 350 MB of GEMM panels on huge
  /// pages made its session start swing between 0.45 and 1.4 s (0.55-0.75 s on small pages).
  /// Winograd's transforms, four times their filters' size and read whole by every run, gain more
  /// (optimized GoogLeNet starts in 16 ms instead of 24).
  enum class Pages { kSmall, kHugeWhenLarge };

  /// Room for `count` floats, 64-byte aligned; throws std::bad_alloc when it cannot be allocated,
  /// which kernel creation reports as an error naming the node.
  explicit WeightBuffer(int64_t count, Pages pages = Pages::kSmall);

  float* data() const { return data_.get(); }

 private:
  struct Free {
    bool from_cpu_allocator = false;
    void operator()(float* pointer) const;
  };
  std::unique_ptr<float, Free> data_;
};

}  // namespace ort
