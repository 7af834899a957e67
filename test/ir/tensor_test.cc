#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "lib/ir/four_bit.h"
#include "lib/ir/tensor.h"

namespace ort {

TEST_CASE("Tensor allocation is aligned and typed", "[ir][Tensor]") {
  auto tensor = Tensor::Allocate(DataType::kFloat, TensorShape{2, 3});
  REQUIRE(tensor.ok());
  CHECK(tensor->NumElements() == 6);
  CHECK(tensor->SizeInBytes() == 24);
  CHECK(reinterpret_cast<uintptr_t>(tensor->RawData()) % IAllocator::kAlignment == 0);
  CHECK(tensor->Describe() == "float[2,3]");
  CHECK_FALSE(Tensor::Allocate(DataType::kFloat, TensorShape{-1}).ok());
}

TEST_CASE("Tensor views share the buffer; clones do not", "[ir][Tensor]") {
  Tensor tensor = Tensor::FromVector<int32_t>({2, 2}, {1, 2, 3, 4});
  auto view = tensor.Reshaped(TensorShape{4});
  REQUIRE(view.ok());
  CHECK(view->SharesBufferWith(tensor));
  CHECK_FALSE(tensor.Reshaped(TensorShape{3}).ok());
  auto clone = tensor.Clone();
  REQUIRE(clone.ok());
  clone->MutableData<int32_t>()[0] = 9;
  CHECK(tensor.Data<int32_t>()[0] == 1);
}

TEST_CASE("String tensors construct and copy their elements", "[ir][Tensor]") {
  Tensor tensor = Tensor::Allocate(DataType::kString, TensorShape{2}).value();
  CHECK(tensor.Data<std::string>()[1].empty());
  tensor.MutableData<std::string>()[0] = "hello";
  Tensor copy = tensor.Clone().value();
  CHECK(copy.Data<std::string>()[0] == "hello");
}

TEST_CASE("Float16 and BFloat16 round to nearest even", "[ir][Float16]") {
  CHECK(Float16(1.0f).bits == 0x3c00);
  CHECK(Float16(-2.0f).bits == 0xc000);
  CHECK(Float16(65504.0f).bits == 0x7bff);
  CHECK(Float16(65520.0f).bits == 0x7c00);                // rounds up to infinity
  CHECK(Float16(5.960464477539063e-08f).bits == 0x0001);  // smallest subnormal
  CHECK(Float16(1.0f + 1.0f / 2048).bits == 0x3c00);      // tie rounds to even
  CHECK(Float16(1.0f + 3.0f / 2048).bits == 0x3c02);
  CHECK(std::isnan(static_cast<float>(Float16(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(static_cast<float>(Float16::FromBits(0x3555)) == Approx(0.333251953125f));
  CHECK(BFloat16(1.0f).bits == 0x3f80);
  CHECK(BFloat16(1.00390625f).bits == 0x3f80);  // tie rounds to even
  CHECK(static_cast<float>(BFloat16::FromBits(0x4049)) == 3.140625f);
}

TEST_CASE("Shapes broadcast like numpy", "[ir][TensorShape]") {
  CHECK(BroadcastShapes(TensorShape{2, 1, 3}, TensorShape{4, 1}).value() == TensorShape{2, 4, 3});
  CHECK(BroadcastShapes(TensorShape{}, TensorShape{5}).value() == TensorShape{5});
  CHECK_FALSE(BroadcastShapes(TensorShape{2}, TensorShape{3}).ok());
  CHECK(NormalizeAxis(-1, 4).value() == 3);
  CHECK_FALSE(NormalizeAxis(4, 4).ok());
  CHECK(ContiguousStrides(TensorShape{2, 3, 4}) == std::vector<int64_t>{12, 4, 1});
}

TEST_CASE("4-bit tensors pack two elements per byte", "[ir][Tensor]") {
  CHECK(StorageBytes(DataType::kInt4, 5) == 3);
  CHECK(StorageBytes(DataType::kUint4, 4) == 2);
  CHECK(StorageBytes(DataType::kFloat, 5) == 20);
  CHECK(ElementSize(DataType::kInt4) == 0);
  Tensor packed = Tensor::Allocate(DataType::kInt4, TensorShape{3}).value();
  CHECK(packed.SizeInBytes() == 2);
  const Tensor values = Tensor::FromVector<int8_t>(TensorShape{3}, {-8, 7, -1});
  REQUIRE(PackFourBit(values, packed).ok());
  const auto* bytes = static_cast<const uint8_t*>(packed.RawData());
  CHECK(bytes[0] == 0x78);
  CHECK(bytes[1] == 0x0F);
  const Tensor unpacked = UnpackFourBit(packed).value();
  CHECK(unpacked.dtype() == DataType::kInt8);
  CHECK(std::vector<int8_t>(unpacked.Span<int8_t>().begin(), unpacked.Span<int8_t>().end()) ==
        std::vector<int8_t>{-8, 7, -1});
  Tensor wrong = Tensor::Allocate(DataType::kUint4, TensorShape{3}).value();
  CHECK_FALSE(PackFourBit(values, wrong).ok());
}

}  // namespace ort
