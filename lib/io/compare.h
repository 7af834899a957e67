// Comparing computed values with expected ones (ort run --expected-dir, the conformance runner).
#pragma once

#include <cstdint>
#include <string>

#include "lib/ir/value.h"

namespace ort {

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-5;
};

struct Comparison {
  bool match = true;
  double max_abs_diff = 0;
  double max_rel_diff = 0;
  int64_t mismatches = 0;
  /// Why it does not match ("" when it does): type, shape or the first bad element.
  std::string detail;
  /// x.y / (|x| |y|) over the finite elements of floating-point tensors (1 when both are all zero,
  /// 0 when one is); 1 for other types. Sequences: the smallest of their tensors'.
  double cosine = 1;
};

/// Elementwise |actual - expected| <= atol + rtol * |expected| (NaN equals NaN, infinities must be
/// equal); integers, bools and strings compare exactly. Sequences compare tensor by tensor.
Comparison CompareValues(const Value& actual, const Value& expected, const Tolerance& tolerance);

}  // namespace ort
