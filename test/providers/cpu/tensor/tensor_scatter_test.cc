#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

// Hand-derived from the spec: present = past, then update rows written along the axis from each
// batch's write index.
TEST_CASE("TensorScatter writes update rows into the cache", "[tensor][TensorScatter]") {
  // Circular: batch 1 writes rows 3 and (3 + 1) % 4 = 0.
  OpTester("TensorScatter", 24)
      .AttrString("mode", "circular")
      .Input<float>("past", {2, 4, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
      .Input<float>("update", {2, 2, 2}, {-1, -2, -3, -4, -5, -6, -7, -8})
      .Input<int64_t>("write_indices", {2}, {1, 3})
      .Output<float>("present", {2, 4, 2},
                     {0, 1, -1, -2, -3, -4, 6, 7, -7, -8, 10, 11, 12, 13, -5, -6})
      .Run();
  // Linear, no write indices (all 0), a 4-D cache [B, heads, max_seq, D] on its default axis -2.
  OpTester("TensorScatter", 24)
      .Input<int32_t>("past", {1, 2, 3, 1}, {1, 2, 3, 4, 5, 6})
      .Input<int32_t>("update", {1, 2, 1, 1}, {-1, -4})
      .Output<int32_t>("present", {1, 2, 3, 1}, {-1, 2, 3, -4, 5, 6})
      .Run();
}

TEST_CASE("TensorScatter rejects linear writes past the end", "[tensor][TensorScatter]") {
  OpTester("TensorScatter", 24)
      .Input<float>("past", {1, 4, 1}, {0, 0, 0, 0})
      .Input<float>("update", {1, 2, 1}, {1, 2})
      .Input<int64_t>("write_indices", {1}, {3})
      .Output<float>("present", {1, 4, 1}, {0, 0, 0, 0})
      .RunExpectingError("write_indices[0] = 3 does not fit 2 rows in 4");
}

}  // namespace ort::test
