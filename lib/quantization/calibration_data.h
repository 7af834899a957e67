// Reading calibration inputs from directories: each set is a directory of NAME.npy files named
// after the model's inputs or of input_<i>.pb TensorProto files (the ONNX test-data layout); a
// directory holding neither is read as a collection of such sets (its subdirectories, such as
// test_data_set_0, test_data_set_1, ...).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/graph.h"
#include "lib/quantization/calibration.h"

namespace ort {

/// The sets found under `directories`, in order (subdirectories sorted by name). Every set must
/// give each of `inputs` exactly once with its declared element type, rank and fixed
/// dimensions; errors name the directory or file and the input.
Result<std::vector<CalibrationSet>> ReadCalibrationSets(std::span<const std::string> directories,
                                                        const std::vector<ValueInfo>& inputs);

}  // namespace ort
