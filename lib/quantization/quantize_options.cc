#include "lib/quantization/quantize_options.h"

#include <fmt/ranges.h>

#include <algorithm>

namespace ort {

Result<QuantizationMode> ParseQuantizationMode(std::string_view text) {
  if (text == "static") return QuantizationMode::kStatic;
  if (text == "dynamic") return QuantizationMode::kDynamic;
  return ORT_ERROR(kInvalidArgument, "unknown quantization mode '{}' (expected static or dynamic)",
                   text);
}

std::string_view QuantizationModeName(QuantizationMode mode) {
  return mode == QuantizationMode::kStatic ? "static" : "dynamic";
}

Result<DataType> ParseWeightType(std::string_view text) {
  if (text == "int8") return DataType::kInt8;
  if (text == "uint8") return DataType::kUint8;
  return ORT_ERROR(kInvalidArgument, "unknown weight type '{}' (expected int8 or uint8)", text);
}

std::vector<std::string> QuantizableOpTypes(QuantizationMode mode) {
  if (mode == QuantizationMode::kDynamic) return {"Gemm", "MatMul"};
  return {"Add",      "AveragePool", "Clip",    "Concat",
          "Conv",     "Flatten",     "Gemm",    "GlobalAveragePool",
          "MatMul",   "MaxPool",     "Mul",     "Relu",
          "Reshape",  "Resize",      "Squeeze", "Transpose",
          "Unsqueeze"};
}

std::set<std::string> DefaultOpTypes(QuantizationMode mode) {
  const std::vector<std::string> all = QuantizableOpTypes(mode);
  return {all.begin(), all.end()};
}

Status CheckOpTypes(const QuantizeOptions& options) {
  const std::vector<std::string> quantizable = QuantizableOpTypes(options.mode);
  for (const std::string& op_type : options.op_types) {
    if (std::find(quantizable.begin(), quantizable.end(), op_type) == quantizable.end()) {
      return ORT_ERROR(kInvalidArgument,
                       "op type '{}' cannot be quantized in {} mode (quantizable: {})", op_type,
                       QuantizationModeName(options.mode), fmt::join(quantizable, ", "));
    }
  }
  return Status::OK();
}

}  // namespace ort
