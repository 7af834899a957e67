#include "lib/ir/four_bit.h"

namespace ort {

Result<Tensor> UnpackFourBit(const Tensor& packed) {
  ORT_RETURN_IF_NOT(IsFourBit(packed.dtype()), "cannot unpack {} as 4-bit values",
                    packed.Describe());
  const bool is_signed = packed.dtype() == DataType::kInt4;
  ORT_ASSIGN_OR_RETURN(
      Tensor unpacked,
      Tensor::Allocate(is_signed ? DataType::kInt8 : DataType::kUint8, packed.shape()));
  auto* out = static_cast<uint8_t*>(unpacked.MutableRawData());
  for (int64_t i = 0; i < packed.NumElements(); ++i) {
    out[i] = static_cast<uint8_t>(ReadFourBit(packed.RawData(), i, is_signed));
  }
  return unpacked;
}

Status PackFourBit(const Tensor& unpacked, Tensor& packed) {
  const DataType expected = packed.dtype() == DataType::kInt4 ? DataType::kInt8 : DataType::kUint8;
  ORT_RETURN_IF_NOT(IsFourBit(packed.dtype()) && unpacked.dtype() == expected &&
                        unpacked.NumElements() == packed.NumElements(),
                    "cannot pack {} into {}", unpacked.Describe(), packed.Describe());
  const auto* in = static_cast<const uint8_t*>(unpacked.RawData());
  auto* out = static_cast<uint8_t*>(packed.MutableRawData());
  const int64_t count = unpacked.NumElements();
  for (int64_t i = 0; i < count; i += 2) {
    const uint8_t high = i + 1 < count ? in[i + 1] & 0x0F : 0;
    out[i >> 1] = static_cast<uint8_t>((in[i] & 0x0F) | (high << 4));
  }
  return Status::OK();
}

}  // namespace ort
