// Per-thread scratch that kernels reuse across calls, starting on a cache line: a std::vector's
// data is only 16-byte aligned, so every 64-byte vector load from it straddles two lines (the
// padded depthwise planes of NCHWc Conv ran 20-40% slower from one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ort {

template <typename T>
class AlignedScratch {
 public:
  static constexpr size_t kAlignBytes = 64;

  // At least `count` elements, valid until the next call with a larger count.
  T* Get(size_t count) {
    const size_t needed = count + kAlignBytes / sizeof(T);
    if (storage_.size() < needed) storage_.resize(needed);
    auto address = reinterpret_cast<uintptr_t>(storage_.data());
    address = (address + kAlignBytes - 1) & ~static_cast<uintptr_t>(kAlignBytes - 1);
    return reinterpret_cast<T*>(address);
  }

 private:
  std::vector<T> storage_;
};

}  // namespace ort
