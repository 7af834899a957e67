// Small helpers shared by the sequence and optional kernels.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/framework/op_kernel.h"

namespace ort {

/// Input `index` as a sequence, or an error naming what it is instead.
Result<const TensorSequence*> RequiredSequence(const KernelContext& context, size_t index);

/// Reads a scalar position (int32 or int64) and maps it from [-size, max_index] to
/// [0, max_index]; out-of-range positions are errors.
Result<int64_t> ReadPosition(const KernelContext& context, const Tensor& position, int64_t size,
                             int64_t max_index);

/// The tensor element types sequence and optional ops accept (every type, complex included).
std::vector<DataType> SequenceElementTypes();

}  // namespace ort
