// libFuzzer target: arbitrary bytes through the tensor file parsers (.npy, and TensorProto,
// SparseTensorProto, SequenceProto, OptionalProto as in .pb files). A .npy the parser accepts
// must also survive writing and reading back: reader and writer agree on every accepted header.
#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "lib/common/logging.h"
#include "lib/io/npy.h"
#include "lib/onnx/tensor_proto.h"

namespace {

void CheckNpy(std::string_view bytes) {
  ort::Result<ort::Tensor> tensor = ort::ParseNpy(bytes, "fuzz.npy");
  if (!tensor.ok()) return;
  ort::Result<std::string> written = ort::SerializeNpy(*tensor);
  if (!written.ok()) return;  // element types .npy cannot hold (bfloat16, 4-bit) are refused
  ort::Result<ort::Tensor> reread = ort::ParseNpy(*written, "fuzz.npy (rewritten)");
  if (!reread.ok() || reread->shape() != tensor->shape() || reread->dtype() != tensor->dtype()) {
    std::abort();
  }
}

template <typename Proto, typename Convert>
void CheckProto(std::string_view bytes, Convert convert) {
  Proto proto;
  if (proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) (void)convert(proto);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ort::SetLogSeverity(ort::LogSeverity::kFatal);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  CheckNpy(bytes);
  // External data is refused without a resolver; the loader's resolver is fuzz_model's.
  CheckProto<onnx::TensorProto>(
      bytes, [](onnx::TensorProto& proto) { return ort::TensorFromProtoCopy(proto, nullptr); });
  CheckProto<onnx::TensorProto>(
      bytes, [](onnx::TensorProto& proto) { return ort::TensorFromProto(proto, nullptr); });
  // The dense form within libFuzzer's memory limit (-rss_limit_mb 4096).
  CheckProto<onnx::SparseTensorProto>(bytes, [](onnx::SparseTensorProto& proto) {
    return ort::TensorFromSparseProto(proto, nullptr, size_t{1} << 30);
  });
  CheckProto<onnx::SequenceProto>(
      bytes, [](onnx::SequenceProto& proto) { return ort::ValueFromSequenceProto(proto); });
  CheckProto<onnx::OptionalProto>(
      bytes, [](onnx::OptionalProto& proto) { return ort::ValueFromOptionalProto(proto); });
  CheckProto<onnx::TypeProto>(
      bytes, [](onnx::TypeProto& proto) { return ort::ValueTypeFromProto(proto); });
  return 0;
}
