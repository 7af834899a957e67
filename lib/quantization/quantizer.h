// Quantizing a float model to 8 bits: static mode calibrates activation ranges on sample inputs
// and writes the QDQ format (qdq_quantizer.h); dynamic mode quantizes MatMul/Gemm weights and
// leaves activations to run time (dynamic_quantizer.h).
#pragma once

#include <span>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/model.h"
#include "lib/quantization/calibration.h"
#include "lib/quantization/quantize_options.h"

namespace ort {

/// Quantizes `model` in place by `options` (empty op_types: DefaultOpTypes), calibrating static
/// mode on `sets` with sessions from `make_session`; returns the per-op-type counts of quantized
/// and float nodes. An optimization record the model carries is dropped: it described the float
/// graph.
Result<std::vector<OpTypeCount>> QuantizeModel(Model& model, QuantizeOptions options,
                                               std::span<const CalibrationSet> sets,
                                               const SessionFactory& make_session);

}  // namespace ort
