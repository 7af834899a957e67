#include <onnx/onnx-data_pb.h>
#include <catch2/catch.hpp>

#include "lib/common/mapped_file.h"
#include "lib/io/compare.h"
#include "lib/io/npy.h"
#include "lib/io/tensor_file.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort {
namespace {

onnx::OptionalProto ReadOptionalProto(const std::string& path) {
  onnx::OptionalProto proto;
  REQUIRE(proto.ParseFromString(ReadFileToString(path).value()));
  return proto;
}

}  // namespace

TEST_CASE("Optional outputs are written as OptionalProto and read back as what they hold",
          "[io][tensor_file]") {
  const auto directory = test::TempDirectory("tensor_file_optional");
  const ValueType tensor_type = ValueType::Tensor(DataType::kFloat);
  const ValueType optional_sequence = ValueType::OptionalOf(ValueType::SequenceOf(tensor_type));
  TensorSequence sequence{
      DataType::kFloat,
      {Tensor::FromVector<float>({2}, {1, 2}), Tensor::FromVector<float>({1}, {3})}};
  const std::string path = (directory / "sequence.pb").string();
  REQUIRE(WriteProtoFile(path, "out", Value(sequence), &optional_sequence).ok());
  const onnx::OptionalProto proto = ReadOptionalProto(path);
  CHECK(proto.name() == "out");
  CHECK(proto.elem_type() == onnx::OptionalProto_DataType_SEQUENCE);
  CHECK(proto.sequence_value().tensor_values_size() == 2);
  auto read = ReadValueFile(path, &optional_sequence);
  REQUIRE(read.ok());
  REQUIRE(read->value.IsSequence());
  CHECK(read->value.sequence().tensors.size() == 2);
  CHECK(CompareValues(read->value, Value(sequence), {0, 0}).match);

  const ValueType optional_tensor = ValueType::OptionalOf(tensor_type);
  const std::string tensor_path = (directory / "tensor.pb").string();
  REQUIRE(
      WriteProtoFile(tensor_path, "t", Value(Tensor::FromVector<float>({1}, {7})), &optional_tensor)
          .ok());
  CHECK(ReadOptionalProto(tensor_path).elem_type() == onnx::OptionalProto_DataType_TENSOR);
  auto tensor = ReadValueFile(tensor_path, &optional_tensor);
  REQUIRE(tensor.ok());
  REQUIRE(tensor->value.IsTensor());
  CHECK(tensor->value.tensor().Data<float>()[0] == 7);

  const std::string none_path = (directory / "none.pb").string();
  REQUIRE(
      WriteProtoFile(none_path, "n", Value(NoneValue{optional_sequence}), &optional_sequence).ok());
  const onnx::OptionalProto none_proto = ReadOptionalProto(none_path);
  CHECK(none_proto.elem_type() == onnx::OptionalProto_DataType_SEQUENCE);
  CHECK_FALSE(none_proto.has_sequence_value());
  auto none = ReadValueFile(none_path, &optional_sequence);
  REQUIRE(none.ok());
  CHECK(none->value.IsNone());
}

TEST_CASE("A uint16 file read for a bfloat16 input holds its raw bits", "[io][tensor_file]") {
  const auto directory = test::TempDirectory("tensor_file_bf16");
  const std::string path = (directory / "bits.npy").string();
  // 0x3FC0 is bfloat16 1.5, 0xC000 is -2.
  REQUIRE(WriteNpy(path, Tensor::FromVector<uint16_t>({2}, {0x3FC0, 0xC000})).ok());
  const ValueType bf16 = ValueType::Tensor(DataType::kBFloat16);
  auto read = ReadValueFile(path, &bf16);
  REQUIRE(read.ok());
  REQUIRE(read->value.tensor().dtype() == DataType::kBFloat16);
  const auto* bits = static_cast<const uint16_t*>(read->value.tensor().RawData());
  CHECK(bits[0] == 0x3FC0);
  CHECK(bits[1] == 0xC000);
  auto plain = ReadValueFile(path);
  REQUIRE(plain.ok());
  CHECK(plain->value.tensor().dtype() == DataType::kUint16);
}

}  // namespace ort
