// Statistical tests for benchmark gates (ort perf --baseline): decisions from samples rather
// than from one pair of medians.
#pragma once

#include <vector>

namespace ort {

/// The one-sided Mann-Whitney U p-value for "x tends to be larger than y": P(U >= observed) when
/// both come from one distribution, U counting the pairs with x > y (ties a half), by the normal
/// approximation with tie and continuity corrections. 1 when a side is empty.
double MannWhitneyGreaterP(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace ort
