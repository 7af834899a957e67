// The Mann-Whitney U test against p-values worked out by hand from its formula.
#include <catch2/catch.hpp>

#include "lib/common/statistics.h"

namespace ort {

TEST_CASE("Mann-Whitney U: one-sided p-values with continuity and tie corrections",
          "[common][statistics]") {
  // x all above y: U = 9 of 9 pairs; variance 3*3/12 * 7 = 5.25; z = (9 - 4.5 - 0.5) / sqrt(5.25).
  CHECK(MannWhitneyGreaterP({4, 5, 6}, {1, 2, 3}) == Approx(0.0404278).epsilon(1e-5));
  // Swapped: U = 0, z = (0 - 4.5 - 0.5) / sqrt(5.25): no evidence that x is larger.
  CHECK(MannWhitneyGreaterP({1, 2, 3}, {4, 5, 6}) == Approx(0.9854518).epsilon(1e-5));
  // Ties: x = {1, 2, 2}, y = {2, 3}: U = 0.5 + 0.5 = 1; the three 2s shrink the variance to
  // 6/12 * (6 - 24/20) = 2.4; z = (1 - 3 - 0.5) / sqrt(2.4).
  CHECK(MannWhitneyGreaterP({1, 2, 2}, {2, 3}) == Approx(0.9467084).epsilon(1e-5));
  // An empty side, or every value equal (no variance): no evidence.
  CHECK(MannWhitneyGreaterP({}, {1, 2}) == 1.0);
  CHECK(MannWhitneyGreaterP({2, 2}, {2, 2}) == 1.0);
}

}  // namespace ort
