// Small float models for the quantizer's tests, typed as a loaded model is, and a CPU session
// factory for calibration.
#pragma once

#include <memory>

#include "lib/quantization/calibration.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {

/// `model` serialized and loaded again, so that its intermediate values have types.
std::unique_ptr<Model> Typed(const Model& model);

/// Sessions on the CPU provider (strict optimizer).
SessionFactory CpuSessions();

/// y = GlobalAveragePool(MaxPool(Relu(Conv(x, W, B)))): x [1, 2, 6, 6], W [3, 2, 3, 3] with pads
/// 1, MaxPool 2x2 stride 2; nodes conv, relu, pool, gap.
std::unique_ptr<Model> ConvReluPoolModel();

/// y = MatMul(x, W) (+ Add(bias) when `bias`): x [2, 4], W [4, 3]; nodes matmul, add.
std::unique_ptr<Model> MatMulModel(bool bias);

/// Calibration sets of seeded uniform values in [low, high) for input `name` of `dims`.
std::vector<CalibrationSet> UniformSets(const std::string& name, std::vector<int64_t> dims,
                                        int count, float low = -1.0f, float high = 1.0f);

/// Output 0 of `model` on `feeds` (a CPU session at the default level).
std::vector<float> RunModel(const Model& model, const CalibrationSet& feeds);

/// How many nodes of `op_type` run in a CPU session on `model` at the default level.
size_t ExecutedOps(const Model& model, std::string_view op_type);

}  // namespace ort::test
