#include "lib/ir/data_type.h"

#include <array>
#include <iterator>
#include <limits>
#include <string>

namespace ort {
namespace {

struct TypeRecord {
  DataType type;
  size_t size;
  std::string_view name;
  std::string_view numpy;
};

constexpr std::array kTypes = {
    TypeRecord{DataType::kUndefined, 0, "undefined", ""},
    TypeRecord{DataType::kFloat, 4, "float", "<f4"},
    TypeRecord{DataType::kUint8, 1, "uint8", "|u1"},
    TypeRecord{DataType::kInt8, 1, "int8", "|i1"},
    TypeRecord{DataType::kUint16, 2, "uint16", "<u2"},
    TypeRecord{DataType::kInt16, 2, "int16", "<i2"},
    TypeRecord{DataType::kInt32, 4, "int32", "<i4"},
    TypeRecord{DataType::kInt64, 8, "int64", "<i8"},
    TypeRecord{DataType::kString, sizeof(std::string), "string", ""},
    TypeRecord{DataType::kBool, 1, "bool", "|b1"},
    TypeRecord{DataType::kFloat16, 2, "float16", "<f2"},
    TypeRecord{DataType::kDouble, 8, "double", "<f8"},
    TypeRecord{DataType::kUint32, 4, "uint32", "<u4"},
    TypeRecord{DataType::kUint64, 8, "uint64", "<u8"},
    TypeRecord{DataType::kComplex64, 8, "complex64", "<c8"},
    TypeRecord{DataType::kComplex128, 16, "complex128", "<c16"},
    TypeRecord{DataType::kBFloat16, 2, "bfloat16", ""},
    TypeRecord{DataType::kFloat8E4M3FN, 1, "float8e4m3fn", ""},
    TypeRecord{DataType::kFloat8E4M3FNUZ, 1, "float8e4m3fnuz", ""},
    TypeRecord{DataType::kFloat8E5M2, 1, "float8e5m2", ""},
    TypeRecord{DataType::kFloat8E5M2FNUZ, 1, "float8e5m2fnuz", ""},
    TypeRecord{DataType::kUint4, 0, "uint4", ""},
    TypeRecord{DataType::kInt4, 0, "int4", ""},
};

const TypeRecord& Record(DataType type) {
  const auto index = static_cast<size_t>(type);
  return index < kTypes.size() ? kTypes[index] : kTypes[0];
}

}  // namespace

size_t ElementSize(DataType type) { return Record(type).size; }

size_t StorageBytes(DataType type, int64_t count) {
  const auto elements = static_cast<size_t>(count);
  return IsFourBit(type) ? (elements + 1) / 2 : elements * ElementSize(type);
}

Result<size_t> CheckedStorageBytes(DataType type, int64_t count) {
  const size_t element_size = IsFourBit(type) ? 1 : ElementSize(type);
  constexpr auto kMaxBytes = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (count < 0 || element_size == 0 || static_cast<uint64_t>(count) > kMaxBytes / element_size) {
    return ORT_ERROR(kInvalidArgument, "{} elements of type {} do not fit in memory", count,
                     DataTypeName(type));
  }
  return StorageBytes(type, count);
}

std::string FormatBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  // Whole numbers (limits such as 16 GiB) print without a fraction.
  if (value == static_cast<double>(static_cast<uint64_t>(value))) {
    return fmt::format("{} {}", static_cast<uint64_t>(value), kUnits[unit]);
  }
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

bool IsFourBit(DataType type) { return type == DataType::kUint4 || type == DataType::kInt4; }
std::string_view DataTypeName(DataType type) { return Record(type).name; }
std::string_view NumpyDescriptor(DataType type) { return Record(type).numpy; }

Result<DataType> DataTypeFromNumpyDescriptor(std::string_view descriptor) {
  // numpy writes one-byte types with '|' and may write native order as '='; both are accepted.
  std::string normalized(descriptor);
  if (!normalized.empty() && (normalized[0] == '=' || normalized[0] == '|')) {
    normalized[0] = normalized.size() == 3 && normalized[2] == '1' ? '|' : '<';
  }
  for (const auto& record : kTypes) {
    if (!record.numpy.empty() && record.numpy == normalized) return record.type;
  }
  if (normalized == "<u1" || normalized == "<i1" || normalized == "<b1") {
    normalized[0] = '|';
    return DataTypeFromNumpyDescriptor(normalized);
  }
  return ORT_ERROR(kInvalidArgument, "unsupported numpy dtype '{}'", descriptor);
}

bool IsKnownDataType(int32_t value) {
  return value > 0 && static_cast<size_t>(value) < kTypes.size();
}

bool IsFloatingPoint(DataType type) {
  return type == DataType::kFloat || type == DataType::kDouble || type == DataType::kFloat16 ||
         type == DataType::kBFloat16;
}

bool IsSignedInteger(DataType type) {
  return type == DataType::kInt8 || type == DataType::kInt16 || type == DataType::kInt32 ||
         type == DataType::kInt64;
}

bool IsUnsignedInteger(DataType type) {
  return type == DataType::kUint8 || type == DataType::kUint16 || type == DataType::kUint32 ||
         type == DataType::kUint64;
}

}  // namespace ort
