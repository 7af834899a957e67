#include "providers/cpu/kernels/common/float8.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ort {
namespace {

struct Float8Format {
  int mantissa_bits;
  int bias;
  bool unsigned_zero;  // FNUZ: no negative zero, 0x80 is the only NaN, no infinity
  bool has_infinity;   // E5M2: IEEE-style infinities and NaNs in the top exponent
  uint8_t max_code;    // the largest finite positive value
  uint8_t nan_code;
};

Float8Format FormatOf(DataType type) {
  switch (type) {
    case DataType::kFloat8E4M3FN:
      return {3, 7, false, false, 0x7E, 0x7F};
    case DataType::kFloat8E4M3FNUZ:
      return {3, 8, true, false, 0x7F, 0x80};
    case DataType::kFloat8E5M2:
      return {2, 15, false, true, 0x7B, 0x7F};
    default:
      return {2, 16, true, false, 0x7F, 0x80};
  }
}

float Decode(uint8_t bits, const Float8Format& f) {
  if (f.unsigned_zero && bits == 0x80) return std::numeric_limits<float>::quiet_NaN();
  const int exponent_bits = 7 - f.mantissa_bits;
  const int exponent = (bits & 0x7F) >> f.mantissa_bits;
  const int mantissa = bits & ((1 << f.mantissa_bits) - 1);
  const int top = (1 << exponent_bits) - 1;
  if (f.has_infinity && exponent == top) {
    return mantissa == 0 ? std::numeric_limits<float>::infinity()
                         : std::numeric_limits<float>::quiet_NaN();
  }
  if (!f.unsigned_zero && !f.has_infinity && (bits & 0x7F) == 0x7F) {
    return std::numeric_limits<float>::quiet_NaN();
  }
  const float magnitude =
      exponent == 0 ? std::ldexp(static_cast<float>(mantissa), 1 - f.bias - f.mantissa_bits)
                    : std::ldexp(static_cast<float>((1 << f.mantissa_bits) + mantissa),
                                 exponent - f.bias - f.mantissa_bits);
  return (bits & 0x80) != 0 ? -magnitude : magnitude;
}

// The finite positive values of a format in code order (which is increasing value order).
struct PositiveValues {
  std::array<float, 128> values{};
  int count = 0;
};

const PositiveValues& PositiveValuesOf(DataType type) {
  static const std::array<PositiveValues, 4> tables = [] {
    std::array<PositiveValues, 4> result;
    for (int t = 0; t < 4; ++t) {
      const Float8Format f = FormatOf(static_cast<DataType>(17 + t));
      result[t].count = f.max_code + 1;
      for (int code = 0; code <= f.max_code; ++code) {
        result[t].values[code] = Decode(static_cast<uint8_t>(code), f);
      }
    }
    return result;
  }();
  return tables[static_cast<int>(type) - 17];
}

}  // namespace

bool IsFloat8(DataType type) {
  return type == DataType::kFloat8E4M3FN || type == DataType::kFloat8E4M3FNUZ ||
         type == DataType::kFloat8E5M2 || type == DataType::kFloat8E5M2FNUZ;
}

std::vector<DataType> WithFloat8Types(std::vector<DataType> types) {
  for (DataType type : {DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
                        DataType::kFloat8E5M2FNUZ}) {
    types.push_back(type);
  }
  return types;
}

float Float8ToFloat(uint8_t bits, DataType type) { return Decode(bits, FormatOf(type)); }

uint8_t FloatToFloat8(float value, DataType type, bool saturate) {
  const Float8Format f = FormatOf(type);
  if (std::isnan(value)) return f.nan_code;
  const uint8_t sign = std::signbit(value) ? 0x80 : 0x00;
  const float magnitude = std::fabs(value);
  const PositiveValues& table = PositiveValuesOf(type);
  const float largest = table.values[f.max_code];
  uint8_t code;
  if (magnitude > largest) {
    // Beyond the largest value: it is still the nearest (when not saturating) up to half a step
    // of the top binade, the step the next, unrepresentable, value would have taken.
    const float step = largest - table.values[f.max_code - 1];
    if (saturate) {
      code = f.max_code;
    } else if (!std::isinf(magnitude) && magnitude < largest + step / 2) {
      code = f.max_code;
    } else {
      return f.has_infinity ? static_cast<uint8_t>(sign | 0x7C) : f.nan_code;
    }
  } else {
    const float* begin = table.values.data();
    const float* upper = std::lower_bound(begin, begin + table.count, magnitude);
    code = static_cast<uint8_t>(upper - begin);
    if (*upper != magnitude) {
      const float above = *upper, below = *(upper - 1);
      const float to_below = magnitude - below, to_above = above - magnitude;
      // Ties go to the even code (an even last mantissa bit).
      if (to_below < to_above || (to_below == to_above && ((code - 1) & 1) == 0)) --code;
    }
  }
  if (f.unsigned_zero && code == 0) return 0;
  return static_cast<uint8_t>(sign | code);
}

}  // namespace ort
