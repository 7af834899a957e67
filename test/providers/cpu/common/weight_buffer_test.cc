#include "providers/cpu/kernels/common/weight_buffer.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <new>

namespace ort {

TEST_CASE("WeightBuffer holds aligned, writable floats", "[weights]") {
  // Empty, small, and past the 2 MB where the CPU allocator would switch to huge pages.
  for (const int64_t count : {int64_t{0}, int64_t{17}, int64_t{3} << 19}) {
    const WeightBuffer buffer(count);
    REQUIRE(buffer.data() != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(buffer.data()) % 64 == 0);
    for (int64_t i = 0; i < count; ++i) buffer.data()[i] = static_cast<float>(i);
    if (count > 0) CHECK(buffer.data()[count - 1] == static_cast<float>(count - 1));
  }
}

// (Sizes that fit size_t but no machine are left out: sanitizer builds abort on them.)
TEST_CASE("WeightBuffer throws bad_alloc for sizes beyond size_t", "[weights]") {
  CHECK_THROWS_AS(WeightBuffer(std::numeric_limits<int64_t>::max()), std::bad_alloc);
}

}  // namespace ort
