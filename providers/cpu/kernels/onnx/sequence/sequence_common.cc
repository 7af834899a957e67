#include "providers/cpu/kernels/onnx/sequence/sequence_common.h"

namespace ort {

Result<const TensorSequence*> RequiredSequence(const KernelContext& context, size_t index) {
  const Value* value = context.InputValue(index);
  if (value == nullptr) return context.Error("input {} is missing", index);
  if (!value->IsSequence()) {
    return context.Error("input {} must be a sequence, got {}", index, value->Describe());
  }
  return &value->sequence();
}

Result<int64_t> ReadPosition(const KernelContext& context, const Tensor& position, int64_t size,
                             int64_t max_index) {
  if (position.NumElements() != 1 ||
      (position.dtype() != DataType::kInt32 && position.dtype() != DataType::kInt64)) {
    return context.Error("position must be a single int32 or int64, got {}", position.Describe());
  }
  const int64_t value = position.dtype() == DataType::kInt32 ? position.Data<int32_t>()[0]
                                                             : position.Data<int64_t>()[0];
  if (value < -size || value > max_index) {
    return context.Error("position {} is out of range [{}, {}]", value, -size, max_index);
  }
  return value < 0 ? value + size : value;
}

std::vector<DataType> SequenceElementTypes() {
  std::vector<DataType> types = AllTensorTypes::DataTypes();
  types.push_back(DataType::kComplex64);
  types.push_back(DataType::kComplex128);
  return types;
}

}  // namespace ort
