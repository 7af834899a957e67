// IEEE half (float16) and bfloat16 storage types with round-to-nearest-even conversion from float.
#pragma once

#include <bit>
#include <cstdint>

namespace ort {

/// Converts a float to IEEE binary16 bits, rounding to nearest even; NaN stays NaN.
constexpr uint16_t FloatToHalfBits(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = bits & 0x80000000u;
  bits ^= sign;
  uint16_t result;
  if (bits >= 0x47800000u) {
    result = bits > 0x7f800000u ? 0x7e00 : 0x7c00;
  } else if (bits < 0x38800000u) {
    // Adding 0.5 shifts the value so the float mantissa's last bit weighs 2^-24, the half
    // subnormal step; the FPU's own rounding then gives round-to-nearest-even.
    const float shifted = std::bit_cast<float>(bits) + 0.5f;
    result = static_cast<uint16_t>(std::bit_cast<uint32_t>(shifted) - 0x3f000000u);
  } else {
    const uint32_t mantissa_odd = (bits >> 13) & 1u;
    bits += (static_cast<uint32_t>(15 - 127) << 23) + 0xfffu + mantissa_odd;
    result = static_cast<uint16_t>(bits >> 13);
  }
  return static_cast<uint16_t>(result | (sign >> 16));
}

/// Converts IEEE binary16 bits to float exactly.
constexpr float HalfBitsToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1fu;
  const uint32_t mantissa = half & 0x3ffu;
  if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;  // 2^-24
    return std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) | sign);
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

/// Converts a float to bfloat16 bits, rounding to nearest even; NaN stays NaN.
constexpr uint16_t FloatToBFloat16Bits(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
  const uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

constexpr float BFloat16BitsToFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

/// IEEE binary16 value. Arithmetic goes through float.
struct Float16 {
  uint16_t bits = 0;

  constexpr Float16() = default;
  constexpr explicit Float16(float value) : bits(FloatToHalfBits(value)) {}
  static constexpr Float16 FromBits(uint16_t raw) {
    Float16 result;
    result.bits = raw;
    return result;
  }
  constexpr operator float() const { return HalfBitsToFloat(bits); }  // NOLINT: numeric type
};

/// Brain floating point (8-bit exponent, 7-bit mantissa). Arithmetic goes through float.
struct BFloat16 {
  uint16_t bits = 0;

  constexpr BFloat16() = default;
  constexpr explicit BFloat16(float value) : bits(FloatToBFloat16Bits(value)) {}
  static constexpr BFloat16 FromBits(uint16_t raw) {
    BFloat16 result;
    result.bits = raw;
    return result;
  }
  constexpr operator float() const { return BFloat16BitsToFloat(bits); }  // NOLINT: numeric type
};

static_assert(sizeof(Float16) == 2 && sizeof(BFloat16) == 2);

}  // namespace ort
