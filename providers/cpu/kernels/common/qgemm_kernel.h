// The 8-bit integer GEMM microkernels, listed once in qgemm_kernels.inc, each compiled for its
// instruction set in qgemm_kernel_<isa>.cc. QGemm (qgemm.h) turns every operand pair (u8/s8 by
// u8/s8) into unsigned A by signed B with adjusted zero points, packs both in the kernel's
// layout and hands blocks to the kernel, which sweeps register tiles over them and accumulates
// raw int32 dot products; the zero-point terms are QGemm's.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "lib/common/cpu_info.h"

namespace ort {

/// The extension a kernel needs beyond its CpuIsa.
enum class QgemmExtension { kNone, kVnni, kAvxVnni, kAmxInt8 };

/// Depth steps a kernel consumes per 32-bit lane: 4 bytes, or 2 int16 when the kernel is wide.
/// Either way a group of depth steps takes 4 bytes of every packed row of A and column of B.
constexpr int64_t kQgemmGroupBytes = 4;

/// One depth group of a packed A row as the 32-bit value the vector kernels broadcast.
inline int32_t LoadQgemmGroup(const uint8_t* p) {
  int32_t value;
  std::memcpy(&value, p, sizeof(value));
  return value;
}

/// The last step of a product that is only requantized, which a kernel that `requantizes` takes
/// over from the int32 store of its final depth block: each sum s of column j becomes the 8-bit
/// round_half_even(min(max(s * multipliers[j], low), high)) + zero_point at out[i * ldo + j], as
/// RequantizeRow computes it.
struct QgemmRequantization {
  const float* multipliers = nullptr;  // per column of the block
  float low = 0.0f;                    // the output type's range minus zero_point
  float high = 0.0f;
  int32_t zero_point = 0;
  uint8_t* out = nullptr;  // int8 or uint8 bytes: the stored low byte is the same
  int64_t ldo = 0;
};

/// C[rows, cols] (row stride ldc) gets the raw dot products of a packed A block and a packed B
/// block over `groups` depth groups: with `first` they replace C, plus column_offsets[j] in
/// every row unless it is null; otherwise they are added to C. With `requantization` (only
/// given to kernels that requantize) the result goes there instead of to C.
/// `a` holds `rows` rows, `a_stride` bytes apart, each `groups` x 4 bytes. `b` holds
/// ceil(cols / nr) panels, `b_panel_stride` bytes apart, each `groups` rows of nr columns x 4
/// bytes, except the last, whose rows are `cols` rounded up to the kernel's vector width.
using QgemmBlockFn = void(int64_t rows, int64_t cols, int64_t groups, const uint8_t* a,
                          int64_t a_stride, const uint8_t* b, int64_t b_panel_stride, bool first,
                          const int32_t* column_offsets, int32_t* c, int64_t ldc,
                          const QgemmRequantization* requantization);

#define ORT_QGEMM_KERNEL(name, isa, extension, mr, nr, wide, requantizes) QgemmBlockFn name;
#include "providers/cpu/kernels/common/qgemm_kernels.inc"
#undef ORT_QGEMM_KERNEL

/// One microkernel as qgemm_kernels.inc lists it; kQgemmKernels holds every one.
struct QgemmKernel {
  /// qgemm_<operands>_<mr>x<nr>_<isa>.
  const char* name;
  /// The instruction set `block` is compiled for and needs.
  CpuIsa isa;
  /// What `block` needs beyond `isa`: VPDPBUSD or the AMX tiles.
  QgemmExtension extension;
  /// Rows of C one register tile covers.
  int64_t mr;
  /// Columns of C one register tile covers; packed B panels hold this many columns.
  int64_t nr;
  /// Whether operands are packed as int16 pairs rather than bytes.
  bool wide;
  /// Whether `block` takes a QgemmRequantization.
  bool requantizes;
  QgemmBlockFn* block;

  /// Columns per vector register: the last panel of B is padded to a multiple of this.
  int64_t ColumnStep() const { return isa == CpuIsa::kAvx512 ? 16 : isa == CpuIsa::kAvx2 ? 8 : nr; }
  /// Depth groups are padded to a multiple of this: an AMX tile row holds 16 groups (64 bytes).
  int64_t GroupMultiple() const { return extension == QgemmExtension::kAmxInt8 ? 16 : 1; }
};

/// Every QGemm microkernel, in the order of qgemm_kernels.inc.
inline constexpr QgemmKernel kQgemmKernels[] = {
#define ORT_QGEMM_KERNEL(name, isa, extension, mr, nr, wide, requantizes) \
  {#name, CpuIsa::isa, QgemmExtension::extension, mr, nr, wide, requantizes, name},
#include "providers/cpu/kernels/common/qgemm_kernels.inc"
#undef ORT_QGEMM_KERNEL
};

/// The entry named `name` in kQgemmKernels, from which its file takes its tile.
consteval const QgemmKernel& QgemmKernelOf(std::string_view name) {
  size_t i = 0;
  while (kQgemmKernels[i].name != name) ++i;
  return kQgemmKernels[i];
}

/// Whether this CPU runs `kernel`, whatever ORT_CPU_ISA caps (tests and benchmarks run each).
bool QgemmKernelRunnable(const QgemmKernel& kernel);

/// The kernel for products of depth `k` and `n` columns: the first of the list this CPU runs
/// within MaxCpuIsa(), passing over the AMX kernel below 64 steps of depth, which its tiles would
/// pad to 64 (a 1x1 convolution over 16 channels computed four times over), and below 64
/// columns, where its 32-column blocks and the round trip of its sums through memory lose to
/// VNNI's registers (mobilenet_v2's 144 -> 24 projection: 0.19 ms on AMX, 0.13 on VNNI).
const QgemmKernel& BestQgemmKernelFor(int64_t k, int64_t n);

}  // namespace ort
