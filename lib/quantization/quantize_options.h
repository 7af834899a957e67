// What `ort quantize` is asked to do: the mode, calibration, weight and activation types, and
// which nodes to quantize.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/data_type.h"
#include "lib/quantization/calibration.h"

namespace ort {

/// kStatic: activations get QuantizeLinear/DequantizeLinear pairs with calibrated parameters.
/// kDynamic: MatMul/Gemm activations are quantized at run time (DynamicQuantizeLinear).
enum class QuantizationMode { kStatic, kDynamic };

Result<QuantizationMode> ParseQuantizationMode(std::string_view text);
std::string_view QuantizationModeName(QuantizationMode mode);

/// kInt8 (symmetric) or kUint8 (asymmetric) from "int8" / "uint8".
Result<DataType> ParseWeightType(std::string_view text);

struct QuantizeOptions {
  QuantizationMode mode = QuantizationMode::kStatic;
  CalibrationOptions calibration;
  /// Weights get one scale per output channel (Conv: axis 0; MatMul and Gemm: output columns).
  bool per_channel = false;
  /// Activations int8 with zero point 0 instead of uint8 asymmetric.
  bool symmetric_activations = false;
  DataType weight_type = DataType::kInt8;
  /// ai.onnx op types to quantize; empty means DefaultOpTypes(mode).
  std::set<std::string> op_types;
  /// Node names left in float.
  std::set<std::string> excluded_nodes;
};

/// Every op type `mode` can quantize, sorted. Static mode: ops with weights (Conv, Gemm,
/// MatMul), ops computed on quantized operands (Add, Mul, Concat, AveragePool,
/// GlobalAveragePool), ops that move quantized data unchanged and keep their input's parameters
/// (MaxPool, Resize, Reshape, Transpose, Flatten, Squeeze, Unsqueeze), and Relu and Clip, whose
/// output is quantized in place of their producer's.
std::vector<std::string> QuantizableOpTypes(QuantizationMode mode);

/// The op types quantized when none are given: all of QuantizableOpTypes.
std::set<std::string> DefaultOpTypes(QuantizationMode mode);

/// Errors naming an op type of `options.op_types` that its mode cannot quantize.
Status CheckOpTypes(const QuantizeOptions& options);

/// How many nodes of one op type were quantized and how many were left in float.
struct OpTypeCount {
  std::string op_type;
  int quantized = 0;
  int left_float = 0;
};

}  // namespace ort
