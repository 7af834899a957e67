// The four 8-bit float formats of ONNX (opset 19): E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ. Values are
// carried as their raw bytes; conversion goes through float. Encoding rounds to nearest even;
// with `saturate` (Cast's default) values beyond the largest finite one, infinities included,
// become that value, otherwise infinity where the format has one (E5M2) and NaN where not.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/ir/data_type.h"

namespace ort {

bool IsFloat8(DataType type);
/// `types` followed by the four float8 types (for kernel type constraints).
std::vector<DataType> WithFloat8Types(std::vector<DataType> types);
/// `type` must be one of the float8 types.
float Float8ToFloat(uint8_t bits, DataType type);
uint8_t FloatToFloat8(float value, DataType type, bool saturate);

}  // namespace ort
