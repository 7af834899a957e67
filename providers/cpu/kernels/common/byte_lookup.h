// out[i] = table[in[i]] over bytes: the kernel of the 8-bit ops that map each of the 256 values
// of their input through a table (QLinearSigmoid and the other lookups, QLinearConcat's
// requantized inputs). With AVX-512 VBMI, 64 bytes at a time from the table in four registers
// (two VPERMI2B and a blend on the index's top bit); a plain loop elsewhere.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ort {

/// The LookupBytes table of an 8-bit T (int8 or uint8): entry b is the T of raw byte b mapped as
/// a DequantizeLinear -> f -> QuantizeLinear group maps it: f((x - x_zero) x_scale) / y_scale
/// in float, rounded half to even, plus y_zero, saturated.
template <typename T, typename F>
std::array<uint8_t, 256> QuantizedTable(F f, float x_scale, int32_t x_zero, float y_scale,
                                        int32_t y_zero) {
  std::array<uint8_t, 256> table{};
  for (int byte = 0; byte < 256; ++byte) {
    const auto x = static_cast<int32_t>(static_cast<T>(static_cast<uint8_t>(byte)));
    const float real = static_cast<float>(x - x_zero) * x_scale;
    const float q = std::nearbyint(f(real) / y_scale) + static_cast<float>(y_zero);
    const float clamped = std::clamp(q, static_cast<float>(std::numeric_limits<T>::min()),
                                     static_cast<float>(std::numeric_limits<T>::max()));
    table[static_cast<size_t>(byte)] = static_cast<uint8_t>(static_cast<T>(clamped));
  }
  return table;
}

/// `table` holds 256 entries indexed by the raw byte (an int8 input's -128 is entry 128).
void LookupBytes(const uint8_t* table, const uint8_t* in, uint8_t* out, int64_t count);

}  // namespace ort
