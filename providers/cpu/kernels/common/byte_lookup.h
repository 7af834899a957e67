// out[i] = table[in[i]] over bytes: the kernel of the 8-bit ops that map each of the 256 values
// of their input through a table (QLinearSigmoid and the other lookups, QLinearConcat's
// requantized inputs). With AVX-512 VBMI, 64 bytes at a time from the table in four registers
// (two VPERMI2B and a blend on the index's top bit); a plain loop elsewhere.
#pragma once

#include <cstdint>

namespace ort {

/// `table` holds 256 entries indexed by the raw byte (an int8 input's -128 is entry 128).
void LookupBytes(const uint8_t* table, const uint8_t* in, uint8_t* out, int64_t count);

}  // namespace ort
