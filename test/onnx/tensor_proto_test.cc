#include <catch2/catch.hpp>

#include <onnx/onnx_pb.h>

#include "lib/ir/four_bit.h"
#include "lib/onnx/tensor_proto.h"

namespace ort {
namespace {

std::vector<int> FourBitValues(const Tensor& tensor) {
  std::vector<int> values;
  for (int64_t i = 0; i < tensor.NumElements(); ++i) {
    values.push_back(ReadFourBit(tensor.RawData(), i, tensor.dtype() == DataType::kInt4));
  }
  return values;
}

}  // namespace

// Bytes as the ONNX spec packs them: first element in the low nibble, a zero padding nibble.
TEST_CASE("4-bit tensors load from raw_data and int32_data", "[onnx][TensorProto]") {
  onnx::TensorProto proto;
  proto.set_name("w");
  proto.set_data_type(22);  // INT4
  proto.add_dims(5);
  proto.set_raw_data(std::string("\xF8\x70\x0E", 3));  // -8, -1 | 0, 7 | -2, pad
  auto tensor = TensorFromProtoCopy(proto, nullptr);
  REQUIRE(tensor.ok());
  CHECK(tensor->dtype() == DataType::kInt4);
  CHECK(tensor->SizeInBytes() == 3);
  CHECK(FourBitValues(*tensor) == std::vector<int>{-8, -1, 0, 7, -2});

  proto.clear_raw_data();
  proto.set_data_type(21);  // UINT4
  for (int byte : {0xF8, 0x70, 0x0E}) proto.add_int32_data(byte);
  tensor = TensorFromProtoCopy(proto, nullptr);
  REQUIRE(tensor.ok());
  CHECK(FourBitValues(*tensor) == std::vector<int>{8, 15, 0, 7, 14});

  onnx::TensorProto saved;
  TensorToProto(*tensor, "w", &saved);
  CHECK(saved.data_type() == 21);
  CHECK(saved.raw_data() == std::string("\xF8\x70\x0E", 3));
}

TEST_CASE("4-bit tensors with the wrong byte count are rejected", "[onnx][TensorProto]") {
  onnx::TensorProto proto;
  proto.set_name("w");
  proto.set_data_type(22);
  proto.add_dims(5);
  proto.set_raw_data(std::string("\xF8\x70", 2));
  auto tensor = TensorFromProtoCopy(proto, nullptr);
  REQUIRE_FALSE(tensor.ok());
  CHECK_THAT(tensor.status().message(), Catch::Contains("has 2 bytes of data, expected 3"));
}

// Dims are free to claim more than the proto holds; the claim is checked before allocating.
TEST_CASE("Tensor protos claiming huge shapes are errors before allocation",
          "[onnx][TensorProto]") {
  onnx::TensorProto proto;
  proto.set_name("w");
  proto.set_data_type(1);  // FLOAT
  proto.add_dims(int64_t{1} << 40);
  proto.add_float_data(1.0f);
  auto tensor = TensorFromProtoCopy(proto, nullptr);
  REQUIRE_FALSE(tensor.ok());
  CHECK_THAT(tensor.status().message(), Catch::Contains("holds 1 values, its shape needs"));

  proto.add_dims(int64_t{1} << 40);
  auto overflowing = TensorFromProtoCopy(proto, nullptr);
  REQUIRE_FALSE(overflowing.ok());
  CHECK_THAT(overflowing.status().message(), Catch::Contains("tensor 'w'"));
  CHECK_THAT(overflowing.status().message(), Catch::Contains("multiply past int64"));
}

}  // namespace ort

namespace ort {

// Hand-derived: values 5 and 7 at flat indices 1 and 4 of a dense [2, 3].
TEST_CASE("Sparse tensors densify within a byte limit", "[onnx][TensorProto]") {
  onnx::SparseTensorProto sparse;
  auto* values = sparse.mutable_values();
  values->set_name("s");
  values->set_data_type(onnx::TensorProto::FLOAT);
  values->add_dims(2);
  values->add_float_data(5);
  values->add_float_data(7);
  auto* indices = sparse.mutable_indices();
  indices->set_data_type(onnx::TensorProto::INT64);
  indices->add_dims(2);
  indices->add_int64_data(1);
  indices->add_int64_data(4);
  sparse.add_dims(2);
  sparse.add_dims(3);
  auto dense = TensorFromSparseProto(sparse, nullptr);
  REQUIRE(dense.ok());
  const float* data = dense->Data<float>();
  CHECK(std::vector<float>(data, data + 6) == std::vector<float>{0, 5, 0, 0, 7, 0});

  CHECK(TensorFromSparseProto(sparse, nullptr, 23).status().message() ==
        "sparse tensor 's': its dense form float[2,3] would need 24 bytes, above the limit of 23 "
        "bytes");
  sparse.set_dims(0, int64_t{1} << 40);
  sparse.set_dims(1, int64_t{1} << 40);
  CHECK(TensorFromSparseProto(sparse, nullptr).status().message().find("sparse tensor 's'") == 0);
}

}  // namespace ort
