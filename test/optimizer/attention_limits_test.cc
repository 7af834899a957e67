#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <limits>

#include "lib/optimizer/attention_heads.h"
#include "lib/optimizer/attention_score_bias.h"

namespace ort {

// Head counts and sizes come from Reshape targets a model chooses: a fusion multiplies them.
TEST_CASE("Attention fusions take head geometry only when its products fit",
          "[optimizer][attention]") {
  CHECK(PlausibleHeads(12, 64));
  CHECK(PlausibleHeads(1, int64_t{1} << 32));
  CHECK_FALSE(PlausibleHeads(2, int64_t{1} << 32));
  CHECK_FALSE(PlausibleHeads(int64_t{1} << 40, int64_t{1} << 40));
  CHECK_FALSE(PlausibleHeads(0, 64));
  CHECK_FALSE(PlausibleHeads(12, -64));
  CHECK_FALSE(PlausibleHeads(-1, -1));

  CHECK(FoldableBiasSize(std::array<int64_t, 4>{64, 3, 49, 49}));
  CHECK(FoldableBiasSize(std::array<int64_t, 3>{16, 1024, 1024}));
  CHECK_FALSE(FoldableBiasSize(std::array<int64_t, 3>{17, 1024, 1024}));
  CHECK_FALSE(FoldableBiasSize(std::array<int64_t, 3>{12, int64_t{1} << 31, int64_t{1} << 31}));
  CHECK_FALSE(FoldableBiasSize(std::array<int64_t, 2>{std::numeric_limits<int64_t>::max(),
                                                      std::numeric_limits<int64_t>::max()}));
  CHECK_FALSE(FoldableBiasSize(std::array<int64_t, 2>{-1, 4}));
}

}  // namespace ort
