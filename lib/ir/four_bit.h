// The packed 4-bit types of opset 21 (int4, uint4): two elements per byte, the first in the low
// nibble, a zero padding nibble when the count is odd. Kernels compute on the unpacked form (one
// int8 or uint8 per element) and pack their result.
#pragma once

#include <cstdint>

#include "lib/common/status.h"
#include "lib/ir/tensor.h"

namespace ort {

inline constexpr int kInt4Min = -8;
inline constexpr int kInt4Max = 7;
inline constexpr int kUint4Max = 15;

/// Element `index` of a packed buffer, sign-extended when `is_signed`.
inline int ReadFourBit(const void* data, int64_t index, bool is_signed) {
  const uint8_t byte = static_cast<const uint8_t*>(data)[index >> 1];
  const int nibble = (index & 1) ? byte >> 4 : byte & 0x0F;
  return is_signed && nibble >= 8 ? nibble - 16 : nibble;
}

/// Sets element `index` of a packed buffer to the low nibble of `value`; the other element of the
/// byte is kept, so concurrent writers must not share a byte.
inline void WriteFourBit(void* data, int64_t index, int value) {
  uint8_t& byte = static_cast<uint8_t*>(data)[index >> 1];
  const auto nibble = static_cast<uint8_t>(value & 0x0F);
  byte = (index & 1) ? static_cast<uint8_t>((byte & 0x0F) | (nibble << 4))
                     : static_cast<uint8_t>((byte & 0xF0) | nibble);
}

/// int4 -> int8 and uint4 -> uint8, same shape.
Result<Tensor> UnpackFourBit(const Tensor& packed);
/// Packs an int8 or uint8 tensor whose values fit `packed`'s type into `packed` (same element
/// count).
Status PackFourBit(const Tensor& unpacked, Tensor& packed);

}  // namespace ort
