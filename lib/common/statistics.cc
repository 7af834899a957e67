#include "lib/common/statistics.h"

#include <algorithm>
#include <cmath>

namespace ort {

double MannWhitneyGreaterP(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.empty() || y.empty()) return 1.0;
  const double n1 = static_cast<double>(x.size());
  const double n2 = static_cast<double>(y.size());
  double u = 0;
  for (const double a : x) {
    for (const double b : y) u += a > b ? 1.0 : a == b ? 0.5 : 0.0;
  }
  // Tie correction of the variance from the pooled sample's groups of equal values.
  std::vector<double> pooled(x);
  pooled.insert(pooled.end(), y.begin(), y.end());
  std::sort(pooled.begin(), pooled.end());
  double ties = 0;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    while (j < pooled.size() && pooled[j] == pooled[i]) ++j;
    const double t = static_cast<double>(j - i);
    ties += t * t * t - t;
    i = j;
  }
  const double n = n1 + n2;
  const double variance = n1 * n2 / 12.0 * ((n + 1) - ties / (n * (n - 1)));
  if (variance <= 0) return 1.0;
  const double z = (u - n1 * n2 / 2.0 - 0.5) / std::sqrt(variance);
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

}  // namespace ort
