// Tensor element types (values match onnx.TensorProto.DataType) and compile-time type lists for
// registering and dispatching kernels over several element types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/float16.h"
#include "lib/common/status.h"

namespace ort {

enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBFloat16 = 16,
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUint4 = 21,
  kInt4 = 22,
};

/// Bytes per element; 0 for kUndefined and for the 4-bit types, which pack two elements into a
/// byte and so have no per-element address (use StorageBytes). kString reports
/// sizeof(std::string) (tensors hold std::string objects).
size_t ElementSize(DataType type);
/// Bytes that hold `count` elements of `type`: ceil(count / 2) for the 4-bit types.
size_t StorageBytes(DataType type, int64_t count);
/// StorageBytes for a count from an unchecked source: an error naming the type when `count` is
/// negative or the bytes exceed int64 (no allocation can be that large).
Result<size_t> CheckedStorageBytes(DataType type, int64_t count);
/// A byte count for messages, in binary units: "512 bytes", "16 GiB", "1.1 TiB".
std::string FormatBytes(uint64_t bytes);
/// int4 and uint4 (opset 21): two elements per byte, the first in the low nibble.
bool IsFourBit(DataType type);
/// ONNX spelling: "float", "int64", "float16", ...
std::string_view DataTypeName(DataType type);
/// The numpy dtype descriptor ("<f4", "|b1", ...); empty when numpy has none.
std::string_view NumpyDescriptor(DataType type);
/// Inverse of NumpyDescriptor.
Result<DataType> DataTypeFromNumpyDescriptor(std::string_view descriptor);
/// True for a value of the ONNX enum this engine can hold in a tensor.
bool IsKnownDataType(int32_t value);
bool IsFloatingPoint(DataType type);
bool IsSignedInteger(DataType type);
bool IsUnsignedInteger(DataType type);

template <typename T>
struct DataTypeTraits;
#define ORT_DATA_TYPE_TRAIT(cpp_type, enum_value)           \
  template <>                                               \
  struct DataTypeTraits<cpp_type> {                         \
    static constexpr DataType kType = DataType::enum_value; \
  }
ORT_DATA_TYPE_TRAIT(float, kFloat);
ORT_DATA_TYPE_TRAIT(double, kDouble);
ORT_DATA_TYPE_TRAIT(Float16, kFloat16);
ORT_DATA_TYPE_TRAIT(BFloat16, kBFloat16);
ORT_DATA_TYPE_TRAIT(int8_t, kInt8);
ORT_DATA_TYPE_TRAIT(int16_t, kInt16);
ORT_DATA_TYPE_TRAIT(int32_t, kInt32);
ORT_DATA_TYPE_TRAIT(int64_t, kInt64);
ORT_DATA_TYPE_TRAIT(uint8_t, kUint8);
ORT_DATA_TYPE_TRAIT(uint16_t, kUint16);
ORT_DATA_TYPE_TRAIT(uint32_t, kUint32);
ORT_DATA_TYPE_TRAIT(uint64_t, kUint64);
ORT_DATA_TYPE_TRAIT(bool, kBool);
ORT_DATA_TYPE_TRAIT(std::string, kString);
#undef ORT_DATA_TYPE_TRAIT

template <typename T>
constexpr DataType DataTypeOf() {
  return DataTypeTraits<T>::kType;
}

/// A compile-time list of element types.
template <typename... Ts>
struct TypeList {
  /// The runtime enum values, for kernel type constraints.
  static std::vector<DataType> DataTypes() { return {DataTypeOf<Ts>()...}; }
};

using FloatTypes = TypeList<float, double, Float16, BFloat16>;
using SignedIntTypes = TypeList<int8_t, int16_t, int32_t, int64_t>;
using UnsignedIntTypes = TypeList<uint8_t, uint16_t, uint32_t, uint64_t>;
using NumericTypes = TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t,
                              uint8_t, uint16_t, uint32_t, uint64_t>;
using AllTensorTypes = TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t,
                                uint8_t, uint16_t, uint32_t, uint64_t, bool, std::string>;

/// Calls `fn.template operator()<T>()` for the T of `List` whose enum value is `type`; `fn`
/// returns Status. Types outside the list give a kNotImplemented error naming `what`.
///   DispatchByType<FloatTypes>(t, "Relu", [&]<typename T>() { return Compute<T>(...); });
template <typename List, typename Fn>
Status DispatchByType(DataType type, std::string_view what, Fn&& fn);

template <typename... Ts, typename Fn>
Status DispatchByTypeImpl(TypeList<Ts...>, DataType type, std::string_view what, Fn&& fn) {
  Status status =
      ORT_ERROR(kNotImplemented, "{} does not support element type {}", what, DataTypeName(type));
  (void)((type == DataTypeOf<Ts>() ? (status = fn.template operator()<Ts>(), true) : false) || ...);
  return status;
}

template <typename List, typename Fn>
Status DispatchByType(DataType type, std::string_view what, Fn&& fn) {
  return DispatchByTypeImpl(List{}, type, what, std::forward<Fn>(fn));
}

}  // namespace ort
