#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace ort {
namespace {

// Contiguous runs longer than this are copied in pieces of this size, so that threads share them.
constexpr int64_t kCopyPieceBytes = 64 << 10;

// Walks a row-major index space while tracking the matching offsets in two strided layouts.
class Odometer {
 public:
  Odometer(std::span<const int64_t> dims, std::span<const int64_t> strides_a,
           std::span<const int64_t> strides_b, int64_t start)
      : dims_(dims), strides_a_(strides_a), strides_b_(strides_b), index_(dims.size(), 0) {
    for (size_t d = dims.size(); d-- > 0;) {
      index_[d] = start % dims[d];
      start /= dims[d];
      a += index_[d] * strides_a[d];
      b += index_[d] * strides_b[d];
    }
  }

  void Next() {
    for (size_t d = dims_.size(); d-- > 0;) {
      a += strides_a_[d];
      b += strides_b_[d];
      if (++index_[d] < dims_[d]) return;
      a -= dims_[d] * strides_a_[d];
      b -= dims_[d] * strides_b_[d];
      index_[d] = 0;
    }
  }

  int64_t a = 0;
  int64_t b = 0;

 private:
  std::span<const int64_t> dims_;
  std::span<const int64_t> strides_a_;
  std::span<const int64_t> strides_b_;
  std::vector<int64_t> index_;
};

struct Layout {
  std::vector<int64_t> dims;
  std::vector<int64_t> src;
  std::vector<int64_t> dst;
};

// Drops unit dimensions and merges neighbours that are contiguous in both layouts, so common
// copies become few long runs.
Layout Simplify(std::span<const int64_t> dims, std::span<const int64_t> src,
                std::span<const int64_t> dst) {
  Layout layout;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 1) continue;
    if (!layout.dims.empty() && layout.src.back() == src[d] * dims[d] &&
        layout.dst.back() == dst[d] * dims[d]) {
      layout.dims.back() *= dims[d];
      layout.src.back() = src[d];
      layout.dst.back() = dst[d];
      continue;
    }
    layout.dims.push_back(dims[d]);
    layout.src.push_back(src[d]);
    layout.dst.push_back(dst[d]);
  }
  return layout;
}

constexpr int64_t kNarrowColumns = 4;

// dst[row * row_stride + c] = src[row + c * column_stride] for rows [row_begin, row_end) and
// c < columns (at most kNarrowColumns), the column count fixed per loop so it unrolls.
template <int64_t kColumns, typename T>
void CopyNarrowRowsOf(const T* src, int64_t column_stride, int64_t row_begin, int64_t row_end,
                      T* dst, int64_t row_stride) {
  for (int64_t row = row_begin; row < row_end; ++row) {
    for (int64_t c = 0; c < kColumns; ++c) dst[row * row_stride + c] = src[row + c * column_stride];
  }
}

template <typename T>
void CopyNarrowRows(const T* src, int64_t column_stride, int64_t columns, int64_t row_begin,
                    int64_t row_end, T* dst, int64_t row_stride) {
  switch (columns) {
    case 1:
      return CopyNarrowRowsOf<1>(src, column_stride, row_begin, row_end, dst, row_stride);
    case 2:
      return CopyNarrowRowsOf<2>(src, column_stride, row_begin, row_end, dst, row_stride);
    case 3:
      return CopyNarrowRowsOf<3>(src, column_stride, row_begin, row_end, dst, row_stride);
    default:
      return CopyNarrowRowsOf<kNarrowColumns>(src, column_stride, row_begin, row_end, dst,
                                              row_stride);
  }
}

// The innermost destination axis reads the source with a stride while another axis `axis` reads
// it contiguously: copy square tiles so both sides stay in cache (or, for a few columns, rows).
template <typename T>
void TiledTranspose(const Layout& layout, size_t axis, const T* src, T* dst, ThreadPool* pool) {
  constexpr int64_t kTile = 16;
  const size_t rank = layout.dims.size();
  const int64_t columns = layout.dims[rank - 1];
  const int64_t column_stride = layout.src[rank - 1];
  const int64_t rows = layout.dims[axis];
  const int64_t row_stride = layout.dst[axis];
  std::vector<int64_t> rest_dims;
  std::vector<int64_t> rest_src;
  std::vector<int64_t> rest_dst;
  for (size_t d = 0; d + 1 < rank; ++d) {
    if (d == axis) continue;
    rest_dims.push_back(layout.dims[d]);
    rest_src.push_back(layout.src[d]);
    rest_dst.push_back(layout.dst[d]);
  }
  int64_t rest_count = 1;
  for (int64_t d : rest_dims) rest_count *= d;
  if (columns <= kNarrowColumns) {
    // A few destination columns (an image's 3 channels moved last): each output row is one
    // short run, and the source rows are as many sequential streams; no tiles needed.
    constexpr int64_t kRange = 1024;
    const int64_t ranges = (rows + kRange - 1) / kRange;
    ThreadPool::TryParallelFor(
        pool, rest_count * ranges, static_cast<double>(kRange * columns) * 2.0,
        [&](int64_t begin, int64_t end) {
          for (int64_t unit = begin; unit < end; ++unit) {
            const Odometer rest(rest_dims, rest_src, rest_dst, unit / ranges);
            const int64_t row_begin = (unit % ranges) * kRange;
            const int64_t row_end = std::min(rows, row_begin + kRange);
            CopyNarrowRows(src + rest.a, column_stride, columns, row_begin, row_end, dst + rest.b,
                           row_stride);
          }
        });
    return;
  }
  const int64_t row_tiles = (rows + kTile - 1) / kTile;
  ThreadPool::TryParallelFor(
      pool, rest_count * row_tiles, static_cast<double>(kTile * columns) * 2.0,
      [&](int64_t begin, int64_t end) {
        for (int64_t unit = begin; unit < end; ++unit) {
          const Odometer rest(rest_dims, rest_src, rest_dst, unit / row_tiles);
          const int64_t row_begin = (unit % row_tiles) * kTile;
          const int64_t row_end = std::min(rows, row_begin + kTile);
          for (int64_t column_begin = 0; column_begin < columns; column_begin += kTile) {
            const int64_t width = std::min(kTile, columns - column_begin);
            for (int64_t row = row_begin; row < row_end; ++row) {
              const T* s = src + rest.a + row + column_begin * column_stride;
              T* d = dst + rest.b + row * row_stride + column_begin;
              for (int64_t c = 0; c < width; ++c) d[c] = s[c * column_stride];
            }
          }
        }
      });
}

template <typename T>
void StridedCopyTyped(const Layout& layout, const T* src, T* dst, ThreadPool* pool) {
  const size_t rank = layout.dims.size();
  if (rank == 0) {
    *dst = *src;
    return;
  }
  const int64_t inner = layout.dims[rank - 1];
  const int64_t src_inner = layout.src[rank - 1];
  const int64_t dst_inner = layout.dst[rank - 1];
  if (dst_inner == 1 && src_inner != 1 && src_inner != 0) {
    for (size_t d = 0; d + 1 < rank; ++d) {
      if (layout.src[d] == 1) return TiledTranspose(layout, d, src, dst, pool);
    }
  }
  const std::span<const int64_t> outer_dims(layout.dims.data(), rank - 1);
  const std::span<const int64_t> outer_src(layout.src.data(), rank - 1);
  const std::span<const int64_t> outer_dst(layout.dst.data(), rank - 1);
  int64_t outer = 1;
  for (int64_t d : outer_dims) outer *= d;
  const bool contiguous = src_inner == 1 && dst_inner == 1;
  const int64_t piece = std::max<int64_t>(1, kCopyPieceBytes / int64_t{sizeof(T)});
  if (contiguous && inner > piece) {
    // Long runs are cut into pieces that threads share: a batch-1 Concat's input is one run (its
    // slab of the output), which ran on one thread while the other waited (DenseNet-121's 56x56
    // Concats at 2 threads: 0.22 ms, as at 1; ORT 0.13).
    const int64_t pieces = (inner + piece - 1) / piece;
    ThreadPool::TryParallelFor(
        pool, outer * pieces, static_cast<double>(piece) * 0.5, [&](int64_t begin, int64_t end) {
          for (int64_t unit = begin; unit < end; ++unit) {
            const Odometer it(outer_dims, outer_src, outer_dst, unit / pieces);
            const int64_t first = unit % pieces * piece;
            CopyElements(src + it.a + first, dst + it.b + first, std::min(piece, inner - first));
          }
        });
    return;
  }
  ThreadPool::TryParallelFor(pool, outer, static_cast<double>(inner) * (contiguous ? 0.5 : 2.0),
                             [&](int64_t begin, int64_t end) {
                               Odometer it(outer_dims, outer_src, outer_dst, begin);
                               for (int64_t position = begin; position < end;
                                    ++position, it.Next()) {
                                 const T* s = src + it.a;
                                 T* d = dst + it.b;
                                 if (contiguous) {
                                   CopyElements(s, d, inner);
                                 } else if (src_inner == 0 && dst_inner == 1) {
                                   std::fill_n(d, inner, *s);
                                 } else {
                                   for (int64_t i = 0; i < inner; ++i)
                                     d[i * dst_inner] = s[i * src_inner];
                                 }
                               }
                             });
}

struct Segment {
  int64_t out_begin;
  int64_t length;
  int64_t source;  // first source index, or -1 for fill
};

// Splits an index map into runs of consecutive source indices and runs of fill.
std::vector<Segment> MakeSegments(const std::vector<int64_t>& map) {
  std::vector<Segment> segments;
  for (int64_t o = 0; o < static_cast<int64_t>(map.size()); ++o) {
    const int64_t source = map[o] < 0 ? -1 : map[o];
    if (!segments.empty()) {
      Segment& last = segments.back();
      const bool extends =
          source < 0 ? last.source < 0 : last.source >= 0 && last.source + last.length == source;
      if (extends) {
        ++last.length;
        continue;
      }
    }
    segments.push_back({o, 1, source});
  }
  return segments;
}

template <typename T>
void AxisMapCopyTyped(const T* in, std::span<const int64_t> in_dims, T* out,
                      std::span<const int64_t> out_dims,
                      const std::vector<std::vector<int64_t>>& maps, const T& fill,
                      ThreadPool* pool) {
  const size_t rank = out_dims.size();
  if (rank == 0) {
    *out = *in;
    return;
  }
  const std::vector<int64_t> in_strides = ContiguousStrides(TensorShape(in_dims));
  const int64_t inner = out_dims[rank - 1];
  const std::vector<int64_t>& inner_map = maps[rank - 1];
  const std::vector<Segment> segments = MakeSegments(inner_map);
  // Mostly single-element runs (upsampling) are cheaper to gather element by element.
  const bool element_wise = static_cast<int64_t>(segments.size()) * 2 > inner;
  const auto build_row = [&](const T* base, T* target) {
    if (element_wise) {
      for (int64_t j = 0; j < inner; ++j) {
        const int64_t source = inner_map[static_cast<size_t>(j)];
        target[j] = source < 0 ? fill : base[source];
      }
      return;
    }
    for (const Segment& segment : segments) {
      T* to = target + segment.out_begin;
      if (segment.source < 0) {
        std::fill_n(to, segment.length, fill);
      } else {
        CopyElements(base + segment.source, to, segment.length);
      }
    }
  };
  int64_t outer = 1;
  for (size_t d = 0; d + 1 < rank; ++d) outer *= out_dims[d];
  ThreadPool::TryParallelFor(pool, outer, static_cast<double>(inner),
                             [&](int64_t begin, int64_t end) {
                               std::vector<int64_t> index(rank - 1, 0);
                               int64_t remainder = begin;
                               for (size_t d = rank - 1; d-- > 0;) {
                                 index[d] = remainder % out_dims[d];
                                 remainder /= out_dims[d];
                               }
                               int64_t previous_offset = -1;
                               for (int64_t row = begin; row < end; ++row) {
                                 T* target = out + row * inner;
                                 int64_t offset = 0;
                                 bool fill_row = false;
                                 for (size_t d = 0; d + 1 < rank; ++d) {
                                   const int64_t source = maps[d][static_cast<size_t>(index[d])];
                                   fill_row = fill_row || source < 0;
                                   offset += source * in_strides[d];
                                 }
                                 if (fill_row) {
                                   std::fill_n(target, inner, fill);
                                   offset = -1;
                                 } else if (offset == previous_offset) {
                                   // Upsampling repeats source rows: reuse the row just built.
                                   CopyElements(target - inner, target, inner);
                                 } else {
                                   build_row(in + offset, target);
                                 }
                                 previous_offset = offset;
                                 for (size_t d = rank - 1; d-- > 0;) {
                                   if (++index[d] < out_dims[d]) break;
                                   index[d] = 0;
                                 }
                               }
                             });
}

}  // namespace

std::vector<DataType> AllDataTypes() {
  return {DataType::kFloat, DataType::kDouble, DataType::kFloat16,   DataType::kBFloat16,
          DataType::kInt8,  DataType::kInt16,  DataType::kInt32,     DataType::kInt64,
          DataType::kUint8, DataType::kUint16, DataType::kUint32,    DataType::kUint64,
          DataType::kBool,  DataType::kString, DataType::kComplex64, DataType::kComplex128};
}

std::vector<DataType> AllDataTypesWithPacked() {
  std::vector<DataType> types = AllDataTypes();
  types.insert(types.end(),
               {DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
                DataType::kFloat8E5M2FNUZ, DataType::kUint4, DataType::kInt4});
  return types;
}

void StridedCopy(DataType type, std::span<const int64_t> dims, const void* src,
                 std::span<const int64_t> src_strides, void* dst,
                 std::span<const int64_t> dst_strides, ThreadPool* pool) {
  for (int64_t d : dims) {
    if (d == 0) return;
  }
  const Layout layout = Simplify(dims, src_strides, dst_strides);
  DispatchByElementSize(type, "StridedCopy", [&]<typename T>() {
    StridedCopyTyped(layout, static_cast<const T*>(src), static_cast<T*>(dst), pool);
    return Status::OK();
  }).IgnoreError();
}

void PermuteCopy(DataType type, std::span<const int64_t> in_dims, std::span<const size_t> perm,
                 const void* src, void* dst, ThreadPool* pool) {
  const std::vector<int64_t> in_strides = ContiguousStrides(TensorShape(in_dims));
  std::vector<int64_t> out_dims(perm.size());
  std::vector<int64_t> src_strides(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    out_dims[i] = in_dims[perm[i]];
    src_strides[i] = in_strides[perm[i]];
  }
  const std::vector<int64_t> dst_strides = ContiguousStrides(TensorShape(out_dims));
  StridedCopy(type, out_dims, src, src_strides, dst, dst_strides, pool);
}

void ContiguousCopy(DataType type, const void* src, void* dst, int64_t count, ThreadPool* pool) {
  DispatchByElementSize(type, "ContiguousCopy", [&]<typename T>() {
    const T* from = static_cast<const T*>(src);
    T* to = static_cast<T*>(dst);
    ThreadPool::TryParallelFor(pool, count, 0.5, [&](int64_t begin, int64_t end) {
      CopyElements(from + begin, to + begin, end - begin);
    });
    return Status::OK();
  }).IgnoreError();
}

void AxisMapCopy(DataType type, const void* in, std::span<const int64_t> in_dims, void* out,
                 std::span<const int64_t> out_dims, const std::vector<std::vector<int64_t>>& maps,
                 const void* fill, ThreadPool* pool) {
  for (int64_t d : out_dims) {
    if (d == 0) return;
  }
  DispatchByElementSize(type, "AxisMapCopy", [&]<typename T>() {
    const T zero{};
    const T& fill_value = fill != nullptr ? *static_cast<const T*>(fill) : zero;
    AxisMapCopyTyped(static_cast<const T*>(in), in_dims, static_cast<T*>(out), out_dims, maps,
                     fill_value, pool);
    return Status::OK();
  }).IgnoreError();
}

}  // namespace ort
