// Element-type-agnostic copying shared by the data-movement kernels (Transpose, Slice, Concat,
// Expand, Tile, Pad, Resize nearest, ...). They move elements without looking at them, so they
// dispatch on the element size only; strings are deep-copied.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/data_type.h"
#include "lib/ir/tensor.h"
#include "lib/threading/thread_pool.h"

namespace ort {

/// A 16-byte element (complex128), moved as a whole.
struct alignas(8) Bytes16 {
  uint64_t low;
  uint64_t high;
};

/// Calls fn.template operator()<T>() with T an unsigned integer (or Bytes16) of the element size
/// of `type`, or std::string for strings; `fn` returns Status.
template <typename Fn>
Status DispatchByElementSize(DataType type, std::string_view what, Fn&& fn) {
  if (type == DataType::kString) return fn.template operator()<std::string>();
  switch (ElementSize(type)) {
    case 1:
      return fn.template operator()<uint8_t>();
    case 2:
      return fn.template operator()<uint16_t>();
    case 4:
      return fn.template operator()<uint32_t>();
    case 8:
      return fn.template operator()<uint64_t>();
    case 16:
      return fn.template operator()<Bytes16>();
    default:
      return ORT_ERROR(kNotImplemented, "{} does not support element type {}", what,
                       DataTypeName(type));
  }
}

/// Copies `count` elements; memcpy for trivially copyable types.
template <typename T>
void CopyElements(const T* src, T* dst, int64_t count) {
  if constexpr (std::is_trivially_copyable_v<T>) {
    if (count > 0) std::memcpy(dst, src, static_cast<size_t>(count) * sizeof(T));
  } else {
    std::copy_n(src, count, dst);
  }
}

/// Calls fn.template operator()<I>() with I = int32_t or int64_t for an index tensor type.
template <typename Fn>
Status DispatchIndexType(DataType type, std::string_view what, Fn&& fn) {
  if (type == DataType::kInt32) return fn.template operator()<int32_t>();
  if (type == DataType::kInt64) return fn.template operator()<int64_t>();
  return ORT_ERROR(kInvalidArgument, "{}: indices must be int32 or int64, got {}", what,
                   DataTypeName(type));
}

/// Every element type the data-movement kernels accept: the ONNX tensor types including complex.
std::vector<DataType> AllDataTypes();
/// AllDataTypes plus the float8 and 4-bit types, for the kernels that leave the data as it is
/// (Identity, Reshape, Squeeze, Shape, ...) and Transpose.
std::vector<DataType> AllDataTypesWithPacked();

/// A pointer to element `index` of an untyped buffer holding elements of `type`.
inline const void* ElementAt(const void* base, DataType type, int64_t index) {
  return static_cast<const char*>(base) + index * static_cast<int64_t>(ElementSize(type));
}
inline void* ElementAt(void* base, DataType type, int64_t index) {
  return static_cast<char*>(base) + index * static_cast<int64_t>(ElementSize(type));
}

/// dst[i . dst_strides] = src[i . src_strides] for every index i of `dims`; strides are in
/// elements and may be 0 (broadcast) or negative. `src` and `dst` point at the element of index 0
/// and must not overlap.
void StridedCopy(DataType type, std::span<const int64_t> dims, const void* src,
                 std::span<const int64_t> src_strides, void* dst,
                 std::span<const int64_t> dst_strides, ThreadPool* pool);

/// Writes the contiguous tensor `src` of shape `in_dims` transposed by `perm` (output axis i is
/// input axis perm[i]) into contiguous `dst`.
void PermuteCopy(DataType type, std::span<const int64_t> in_dims, std::span<const size_t> perm,
                 const void* src, void* dst, ThreadPool* pool);

/// Copies all of contiguous `src` into contiguous `dst` laid out with `dims`.
void ContiguousCopy(DataType type, const void* src, void* dst, int64_t count, ThreadPool* pool);

/// out[o] = in[maps[0][o_0], ..., maps[r-1][o_{r-1}]] over the row-major output `out_dims`, or
/// `*fill` (one element of `type`; zero when null) where any map entry is negative. `in` is
/// contiguous with `in_dims`; each maps[k] has out_dims[k] entries in [-1, in_dims[k]). Runs of
/// consecutive indices along the last axis are copied as blocks.
void AxisMapCopy(DataType type, const void* in, std::span<const int64_t> in_dims, void* out,
                 std::span<const int64_t> out_dims, const std::vector<std::vector<int64_t>>& maps,
                 const void* fill, ThreadPool* pool);

}  // namespace ort
