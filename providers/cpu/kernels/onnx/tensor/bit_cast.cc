// BitCast (opset 26): the input's bytes (little-endian) read as another type of the same bit
// width, shape unchanged. Strings have no bits to reinterpret. Bytes cast to bool become 0 or 1
// (any nonzero byte is true), since kernels rely on bool holding only those.
#include <cstring>

#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

size_t BitWidth(DataType type) { return IsFourBit(type) ? 4 : 8 * ElementSize(type); }

class BitCast final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t to, info.GetAttribute<int64_t>("to"));
    to_ = IsKnownDataType(static_cast<int32_t>(to)) ? static_cast<DataType>(to)
                                                    : DataType::kUndefined;
    if (to_ == DataType::kUndefined || to_ == DataType::kString) {
      return ORT_ERROR(kNotImplemented, "cannot bit-cast to type {}", to)
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    if (input->dtype() == DataType::kString || BitWidth(input->dtype()) != BitWidth(to_)) {
      return context.Error("cannot bit-cast {} ({} bits) to {} ({} bits)", input->Describe(),
                           BitWidth(input->dtype()), DataTypeName(to_), BitWidth(to_));
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, to_, input->shape()));
    if (output->SizeInBytes() == 0) return Status::OK();
    std::memcpy(output->MutableRawData(), input->RawData(), input->SizeInBytes());
    if (to_ == DataType::kBool) {
      auto* bytes = static_cast<uint8_t*>(output->MutableRawData());
      for (size_t i = 0; i < output->SizeInBytes(); ++i) bytes[i] = bytes[i] != 0;
    }
    return Status::OK();
  }

 private:
  DataType to_ = DataType::kUndefined;
};

}  // namespace

void RegisterBitCastKernels(KernelRegistry& registry) {
  std::vector<DataType> types = AllDataTypesWithPacked();
  std::erase(types, DataType::kString);
  registry.Add<BitCast>(KernelDef("BitCast").Versions(26).Input(0, types));
}

}  // namespace ort
